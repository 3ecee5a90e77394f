// html.cpp: escaping and the page frame (see html.hpp).
#include "sandbox/html.hpp"

#include "app/i18n.hpp"

namespace roomkey::sandbox {

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

void use_page_language(const Headers& headers) {
    app::i18n::set_language(app::i18n::from_accept_language(headers.get("Accept-Language").value_or("")));
}

std::string hidden_field(std::string_view name, std::string_view value) {
    return "<input type=\"hidden\" name=\"" + html_escape(name) + "\" value=\"" + html_escape(value) + "\">";
}

std::string html_page(std::string_view title, std::string_view body) {
    std::string page;
    page.reserve(body.size() + 1200);
    page += "<!DOCTYPE html>\n<html lang=\"";
    page += app::i18n::code(app::i18n::language());
    page += "\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta name=\"referrer\" content=\"no-referrer\"><title>";
    page += html_escape(title);
    page += app::tr("sandbox.title_suffix");
    page += "</title><style>"
            "body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}"
            "header{border-bottom:1px solid #ccc;margin-bottom:1.5rem;color:#555;font-size:.9rem}"
            "h1{font-size:1.5rem}label{display:block;margin:.75rem 0 .25rem;font-weight:600}"
            "input[type=text],input[type=password],textarea{width:100%;padding:.4rem;font:inherit;box-sizing:border-box}"
            "button{font:inherit;padding:.4rem 1.2rem;margin:1rem .5rem 0 0}"
            ".error{background:#fdecea;border:1px solid #e0a39a;padding:.75rem;border-radius:4px}"
            ".secret{font-family:monospace;background:#f3f3f3;padding:.2rem .4rem;word-break:break-all}"
            "code{background:#f3f3f3;padding:0 .2rem}table{border-collapse:collapse}td,th{padding:.3rem .6rem;"
            "border-bottom:1px solid #ddd;text-align:left;vertical-align:top}"
            "</style></head><body><header>";
    page += html_escape(app::tr("sandbox.banner"));
    page += "</header>\n<main>";
    page += body;
    page += "</main></body></html>\n";
    return page;
}

}  // namespace roomkey::sandbox
