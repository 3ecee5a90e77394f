// console_call.cpp: checking a console call against the catalog (see console_call.hpp).
#include "roomkey/console_call.hpp"

#include <optional>

namespace roomkey {

namespace {

bool all_digits(std::string_view text) {
    if (text.empty() || text.size() > 19) return false;  // fits int64 seconds
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

bool is_id_list(std::string_view text) {
    if (text.empty()) return false;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        if (!is_resource_id(text.substr(start, comma == std::string_view::npos ? comma : comma - start))) {
            return false;
        }
        if (comma == std::string_view::npos) return true;
        start = comma + 1;
    }
}

std::string allowed_list(std::string_view allowed) {
    std::string out;
    for (char c : allowed) out += c == '|' ? std::string(", ") : std::string(1, c);
    return out;
}

std::string param_names(const EndpointInfo& info) {
    std::string out;
    for (const EndpointParam& p : info.params) {
        if (!out.empty()) out += ", ";
        out += p.name;
    }
    return out.empty() ? "none" : out;
}

// Empty when the value fits the parameter; else what to enter.
std::string value_problem(const EndpointParam& p, std::string_view value) {
    const std::string name(p.name);
    switch (p.type) {
        case ParamType::id:
            if (!is_resource_id(value)) return name + " must be an id: 1 to 20 digits without a leading zero.";
            break;
        case ParamType::id_list:
            if (!is_id_list(value)) return name + " must be ids separated by commas, e.g. 101,102.";
            break;
        case ParamType::choice:
            if (!is_allowed_value(p, value)) return name + " must be one of: " + allowed_list(p.allowed) + ".";
            break;
        case ParamType::unix_time:
            if (!all_digits(value)) return name + " must be a Unix time in seconds (digits only).";
            break;
        case ParamType::file:
            return name + " is a file upload, which the console does not send; use the service's own client.";
        case ParamType::text:
            break;
    }
    return {};
}

const std::string* value_of(const FormFields& params, std::string_view name) {
    for (const auto& [key, value] : params) {
        if (key == name && !value.empty()) return &value;
    }
    return nullptr;
}

}  // namespace

Result<CheckedCall, std::vector<CallProblem>> check_call(Method method, std::string_view path,
                                                         const FormFields& params) {
    std::vector<CallProblem> problems;
    CheckedCall call;
    call.endpoint = find_endpoint(method, path);
    std::optional<EndpointMatch> match;
    if (!call.endpoint) {
        match = match_endpoint(method, path);
        if (!match) {
            return Err{std::vector<CallProblem>{
                {"", std::string(to_string(method)) + " " + std::string(path) +
                         " is not an endpoint of the catalog; pick one from the list (ids as digits, no query)."}}};
        }
        call.endpoint = &endpoint_info(match->endpoint);
    }
    const EndpointInfo& info = *call.endpoint;

    for (const auto& [key, value] : params) {
        const EndpointParam* p = find_param(info, key);
        if (!p) {
            problems.push_back({key, key + " is not a parameter of " + std::string(to_string(info.method)) + " " +
                                         std::string(info.path) + " (it takes: " + param_names(info) + ")."});
            continue;
        }
        if (p->where == ParamWhere::path && match && !value.empty()) {
            const std::string& from_path = p->name == "room_id" ? match->room_id : match->item_id;
            if (value != from_path) {
                problems.push_back({key, key + " is " + from_path + " in the path; give it once."});
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
            if (p.required) problems.push_back({name, name + " is required."});
            continue;
        }
        std::string problem = value_problem(p, *value);
        if (!problem.empty()) {
            problems.push_back({name, std::move(problem)});
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

std::string describe(const std::vector<CallProblem>& problems) {
    std::string out;
    for (const CallProblem& p : problems) {
        if (!out.empty()) out += ' ';
        out += p.message;
    }
    return out;
}

}  // namespace roomkey
