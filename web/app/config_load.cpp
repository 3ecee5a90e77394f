// config_load.cpp: loading /config.json (config_load.hpp says why it is its own object).
#include "app/config_load.hpp"

#include "app/app_detail.hpp"
#include "app/i18n.hpp"

namespace roomkey::app {

ApiConfig ConfigLoad::api_config() const {
    if (!value_) return ApiConfig{std::string(kHelperApiBase)};
    return ApiConfig{value_->api_base, value_->token_header};
}

HttpRequest ConfigLoad::begin() {
    loading_ = true;
    error_.clear();
    HttpRequest request;
    request.method = Method::Get;
    request.url = std::string(kConfigPath);
    return request;
}

bool ConfigLoad::on_response(const HttpResponse& response) {
    loading_ = false;
    if (!detail::is_success(response.status)) {
        error_ = tr("config.helper_answered", {{"status", std::to_string(response.status)}});
        return false;
    }
    auto parsed = parse_public_config(response.body);
    if (!parsed) {
        error_ = parsed.error();
        return false;
    }
    value_ = std::move(*parsed);
    if (!value_->configured) error_ = tr("config.no_upstream");
    return true;
}

void ConfigLoad::on_no_answer(const std::string& reason) {
    loading_ = false;
    error_ = tr("config.no_answer", {{"reason", reason}});
}

}  // namespace roomkey::app
