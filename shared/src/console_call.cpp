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
    return out.empty() ? "none" : out;
}

// Empty when the value fits the parameter; else what to enter.
std::string value_problem(const EndpointParam& p, std::string_view value) {
    if (p.type == ParamType::file) {
        return std::string(p.name) + " is a file upload, which the console does not send; use the service's own client.";
    }
    return param_value_problem(p, value);  // the catalog's one value rule
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
