// console.cpp: the API console's decisions and results (see console.hpp).
#include "app/console.hpp"

#include <nlohmann/json.hpp>

#include "app/i18n.hpp"
#include "app/views_state.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/json_text.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/www_authenticate.hpp"

namespace roomkey::app {

namespace {

using json = nlohmann::json;

std::string call_name(Method method, const std::string& path) {
    return std::string(to_string(method)) + " " + path;
}

// Pretty JSON keeps every number as sent (message_id above 2^53 included:
// nlohmann reads integers into 64 bits); a body that is not JSON is shown as is.
std::string format_body(const std::string& body) {
    if (body.empty()) return {};
    const json parsed = roomkey::parse_json_text(body);
    if (parsed.is_discarded()) return body;
    return parsed.dump(2, ' ', false, json::error_handler_t::replace);
}

// The call as asked: ids from the parameters filled into a template, the
// other non-empty parameters kept as given.
ConsolePending as_asked(Method method, const std::string& path, const FormFields& params) {
    ConsolePending call;
    call.method = method;
    const EndpointInfo* info = find_endpoint(method, path);
    call.path = info ? fill_path_template(path, [&](std::string_view name) {
        return form_get(params, name).value_or(std::string());
    })
                     : path;
    for (const auto& [name, value] : params) {
        const EndpointParam* p = info ? find_param(*info, name) : nullptr;
        if (!value.empty() && !(p && p->where == ParamWhere::path)) call.params.emplace_back(name, value);
    }
    if (auto match = match_endpoint(method, call.path)) {
        call.room_post = endpoint_info(match->endpoint).room_post;
        call.room_id = match->room_id;
    }
    return call;
}

}  // namespace

std::string problem_words(const CallProblem& p) {
    std::string key = "console.problem." + std::string(to_string(p.kind));
    if (p.kind == CallProblemKind::unknown_param && p.values.empty()) key += "_none";
    return tr(key, {{"param", p.param},
                    {"call", p.call},
                    {"values", p.values},
                    {"min", std::to_string(p.min)},
                    {"max", std::to_string(p.max)},
                    {"length", std::to_string(p.length)}});
}

std::string describe(const std::vector<CallProblem>& problems) {
    std::string out;
    for (const CallProblem& p : problems) {
        // Sentences join with a space, but after a full stop of Japanese (。) with none, as Japanese is written.
        if (!out.empty() && (out.size() < 3 || out.compare(out.size() - 3, 3, "\xE3\x80\x82") != 0)) out += ' ';
        out += problem_words(p);
    }
    return out;
}

Console::Decision Console::prepare(Method method, const std::string& path, const FormFields& params,
                                   const std::optional<ScopeSet>& granted, bool confirmed, bool anyway) {
    Decision decision;
    problems_.clear();
    pending_.reset();
    asked_ = as_asked(method, path, params);
    ConsoleLast last;
    last.method = std::string(to_string(method));
    last.path = path;
    last.scope_granted = granted ? format_scope_list(*granted) : std::string();
    auto checked = check_call(method, path, params);
    if (!checked) {
        problems_ = checked.error();
        last.check = describe(problems_);
        last.error = tr("console.not_sent", {{"why", last.check}});
        missing_scope_.clear();
        if (anyway && match_endpoint(method, asked_.path)) return send_anyway(std::move(last), confirmed);
        last_ = std::move(last);
        decision.verdict = Verdict::problems;
        return decision;
    }
    const EndpointInfo& endpoint = *checked->endpoint;
    last.scope_needed = std::string(endpoint.scope);
    if (granted && !grants(*granted, endpoint.scope)) {
        missing_scope_ = std::string(endpoint.scope);
        last.check = tr("console.missing_scope", {{"call", call_name(method, checked->path)}, {"scope", missing_scope_}});
        last.error = tr("console.not_sent", {{"why", last.check}});
        if (anyway) return send_anyway(std::move(last), confirmed);
        last_ = std::move(last);
        decision.verdict = Verdict::missing_scope;
        return decision;
    }
    ConsolePending call;
    call.method = method;
    call.path = checked->path;
    call.params = checked->params;
    call.room_post = endpoint.room_post;
    if (auto match = match_endpoint(method, checked->path)) call.room_id = match->room_id;
    last_ = std::move(last);
    if (endpoint.destructive && !confirmed) {
        last_->error = tr("console.confirm_wait", {{"call", call_name(method, call.path)}});
        pending_ = call;
        decision.verdict = Verdict::confirm;
        return decision;
    }
    decision.verdict = Verdict::send;
    decision.call = std::move(call);
    return decision;
}

Console::Decision Console::send_anyway(ConsoleLast last, bool confirmed) {
    last.anyway = true;
    last.error.clear();
    last_ = std::move(last);
    Decision decision;
    const EndpointInfo* endpoint = match_endpoint(asked_.method, asked_.path)
                                       ? &endpoint_info(match_endpoint(asked_.method, asked_.path)->endpoint)
                                       : nullptr;
    if (endpoint && endpoint->destructive && !confirmed) {
        last_->error = tr("console.confirm_wait", {{"call", call_name(asked_.method, asked_.path)}});
        pending_ = asked_;
        decision.verdict = Verdict::confirm;
        return decision;
    }
    decision.verdict = Verdict::send;
    decision.call = asked_;
    return decision;
}

std::optional<ConsolePending> Console::confirm() {
    std::optional<ConsolePending> call = std::move(pending_);
    pending_.reset();
    if (call && last_) last_->error.clear();
    return call;
}

void Console::cancel() {
    if (pending_ && last_) last_->error = tr("console.cancelled");
    pending_.reset();
}

void Console::on_sent() {
    sending_ = true;
    if (last_) {
        last_->sent = true;
        last_->error.clear();
    }
}

void Console::on_answer(const HttpResponse& response) {
    sending_ = false;
    if (!last_) last_.emplace();
    ConsoleLast& last = *last_;
    last.status = response.status;
    last.json = format_body(response.body);
    last.rate.clear();
    last.rate_reset.reset();
    if (auto rate = read_rate_limit(response.headers); rate && *rate) {
        last.rate_reset = (*rate)->reset;
        last.rate = "x-ratelimit-limit " + std::to_string((*rate)->limit) + ", remaining " +
                    std::to_string((*rate)->remaining) + ", reset " +
                    std::to_string(std::chrono::duration_cast<Seconds>((*rate)->reset.time_since_epoch()).count());
    }
    if (response.status >= 200 && response.status < 300) {
        last.error.clear();
        missing_scope_.clear();
        return;
    }
    last.error = "HTTP " + std::to_string(response.status);
    const auto challenge = find_bearer_challenge(response.headers);
    if (response.status == 403 && challenge && challenge->error == "insufficient_scope") {
        // Spec 5.2.2: the service names the scope the call needed.
        missing_scope_ = challenge->scope ? *challenge->scope : last.scope_needed;
        last.error = tr("console.insufficient_scope", {{"status", "403"}, {"scope", missing_scope_}});
    }
}

void Console::on_failure(const std::string& reason) {
    sending_ = false;
    if (!last_) last_.emplace();
    last_->status.reset();
    last_->json.clear();
    last_->error = tr("console.no_answer", {{"reason", reason}});
}

std::string Console::announcement() const {
    if (!last_) return {};
    const ConsoleLast& last = *last_;
    const std::string call = last.method + " " + last.path;
    const std::string_view stop = tr("console.full_stop");
    std::string out = last.status ? tr("console.announce_status", {{"call", call}, {"status", std::to_string(*last.status)}})
                                  : tr("console.announce", {{"call", call}});
    if (!last.error.empty()) out += (last.status ? std::string(stop) + " " : std::string(": ")) + last.error;
    const auto ends = [&](std::string_view end) {
        return out.size() >= end.size() && out.compare(out.size() - end.size(), end.size(), end) == 0;
    };
    if (!ends(".") && !ends(stop)) out += stop;
    return out;
}

std::string console_json(const Console& console) {
    json out = json::object();
    if (const auto& last = console.last()) {
        out["last"] = object_of({{"method", last->method},
                                 {"path", last->path},
                                 {"status", last->status ? json(*last->status) : json(nullptr)},
                                 {"json", last->json},
                                 {"scope_needed", last->scope_needed},
                                 {"scope_granted", last->scope_granted},
                                 {"rate", last->rate},
                                 {"error", last->error},
                                 {"sent", last->sent},
                                 {"anyway", last->anyway},
                                 {"check", last->check}});
    } else {
        out["last"] = nullptr;
    }
    json problems = json::array();
    const i18n::Lang lang = i18n::language();
    i18n::set_language(i18n::Lang::en);  // the page API's values stay English
    for (const CallProblem& p : console.problems()) {
        problems.push_back(object_of({{"param", p.param}, {"kind", to_string(p.kind)}, {"message", problem_words(p)}}));
    }
    i18n::set_language(lang);
    out["problems"] = std::move(problems);
    out["missing_scope"] = console.missing_scope();
    if (const auto& pending = console.pending()) {
        out["confirm"] = object_of({{"method", std::string(to_string(pending->method))}, {"path", pending->path}});
    } else {
        out["confirm"] = nullptr;
    }
    out["sending"] = console.sending();
    out["announce"] = console.announcement();
    return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace roomkey::app
