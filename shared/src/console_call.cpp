// console_call.cpp: checking a console call against the catalog (see console_call.hpp).
#include "roomkey/console_call.hpp"

#include <optional>

namespace roomkey {

namespace {

std::string param_names(const EndpointInfo& info) {
    std::string out;
    for (const EndpointParam& p : info.params) {
        if (!out.empty()) out += ", ";
        out += p.name;
    }
    return out;
}

std::string call_of(Method method, std::string_view path) {
    return std::string(to_string(method)) + " " + std::string(path);
}

// nullopt when the value fits the parameter.
std::optional<CallProblem> problem_of(const EndpointParam& p, std::string_view value) {
    CallProblem out;
    out.param = std::string(p.name);
    if (p.type == ParamType::file) {
        out.kind = CallProblemKind::file_upload;
        return out;
    }
    const ValueProblem problem = value_problem(p, value);  // the catalog's one value rule
    if (problem == ValueProblem::none) return std::nullopt;
    out.kind = call_problem(problem);
    if (problem == ValueProblem::not_choice) out.values = allowed_list(p.allowed);
    out.min = p.min_chars;
    out.max = p.max_chars;
    out.length = utf8_length(value);
    return out;
}

const std::string* value_of(const FormFields& params, std::string_view name) {
    for (const auto& [key, value] : params) {
        if (key == name && !value.empty()) return &value;
    }
    return nullptr;
}

}  // namespace

std::string_view to_string(CallProblemKind kind) {
    static constexpr std::string_view names[] = {
        "not_endpoint", "unknown_param", "given_twice", "required",   "file_upload", "not_id",     "not_id_list",
        "not_choice",   "not_unix_time", "not_url_code", "too_short", "too_long",    "bad_length",
    };
    return names[static_cast<std::size_t>(kind)];
}

Result<CheckedCall, std::vector<CallProblem>> check_call(Method method, std::string_view path,
                                                         const FormFields& params) {
    std::vector<CallProblem> problems;
    CheckedCall call;
    call.endpoint = find_endpoint(method, path);
    std::optional<EndpointMatch> match;
    if (!call.endpoint) {
        match = match_endpoint(method, path);
        if (!match) {
            CallProblem whole;
            whole.kind = CallProblemKind::not_endpoint;
            whole.call = call_of(method, path);
            return Err{std::vector<CallProblem>{std::move(whole)}};
        }
        call.endpoint = &endpoint_info(match->endpoint);
    }
    const EndpointInfo& info = *call.endpoint;

    for (const auto& [key, value] : params) {
        const EndpointParam* p = find_param(info, key);
        if (!p) {
            CallProblem unknown;
            unknown.kind = CallProblemKind::unknown_param;
            unknown.param = key;
            unknown.call = call_of(info.method, info.path);
            unknown.values = param_names(info);
            problems.push_back(std::move(unknown));
            continue;
        }
        if (p->where == ParamWhere::path && match && !value.empty()) {
            const std::string& from_path = p->name == "room_id" ? match->room_id : match->item_id;
            if (value != from_path) {
                CallProblem twice;
                twice.kind = CallProblemKind::given_twice;
                twice.param = key;
                twice.values = from_path;
                problems.push_back(std::move(twice));
            }
        }
    }
    for (const EndpointParam& p : info.params) {
        const std::string name(p.name);
        const std::string* value = value_of(params, p.name);
        std::string from_path;
        if (p.where == ParamWhere::path && match) {
            from_path = p.name == "room_id" ? match->room_id : match->item_id;
            value = &from_path;
        }
        if (!value) {
            if (p.required) problems.push_back({CallProblemKind::required, name, {}, {}});
            continue;
        }
        if (auto problem = problem_of(p, *value)) {
            problems.push_back(std::move(*problem));
            continue;
        }
        if (p.where != ParamWhere::path) call.params.emplace_back(name, *value);
    }
    if (!problems.empty()) return Err{std::move(problems)};
    call.path = match ? std::string(path) : fill_path_template(info.path, [&](std::string_view name) {
        const std::string* v = value_of(params, name);
        return v ? *v : std::string();
    });
    return call;
}

}  // namespace roomkey
