// client_form.cpp: the client creation form's fields -> ClientRegistration.
#include "sandbox/client_form.hpp"

#include "app/i18n.hpp"

namespace roomkey::sandbox {

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.remove_suffix(1);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
        if (!line.empty()) out.emplace_back(line);
        start = end + 1;
    }
    return out;
}

ClientForm read_client_form(const FormFields& form) {
    ClientForm out;
    ClientRegistration& reg = out.registration;
    reg.name = form_get(form, "name").value_or("");
    const auto type = parse_client_type(form_get(form, "type").value_or(""));
    if (type) {
        reg.type = *type;
    } else {
        out.problems.emplace_back(app::tr("sandbox.clients.choose_type"));
    }
    reg.redirect_uris = split_lines(form_get(form, "redirect_uris").value_or(""));
    for (const auto& [name, value] : form) {
        if (name == "scope" && !value.empty()) reg.scopes.push_back(value);
    }
    return out;
}

}  // namespace roomkey::sandbox
