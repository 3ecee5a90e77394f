// config_load.hpp: roomkey-helper's configuration (GET /config.json) as the
// page loads it: the document once read, why it could not be, and whether
// the load is under way. Until a document is read, what the page sends
// follows the constants PublicConfig's defaults are (public_config.hpp), so
// no default is written here a second time.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "roomkey/api.hpp"
#include "roomkey/http.hpp"
#include "roomkey/public_config.hpp"

namespace roomkey::app {

class ConfigLoad {
public:
    const std::optional<PublicConfig>& value() const { return value_; }
    const std::string& error() const { return error_; }
    bool loading() const { return loading_; }
    bool bff() const { return value_ && value_->bff(); }
    // Where REST requests go and the API token's header; the helper's
    // anti-CSRF header. Before the document is read, shared/'s defaults (the
    // constants PublicConfig starts from).
    ApiConfig api_config() const;
    std::string_view token_header() const { return value_ ? value_->token_header : kDefaultApiTokenHeader; }
    std::string_view request_header() const { return value_ ? value_->request_header : kHelperRequestHeader; }

    // GET /config.json; the load is under way until its answer.
    HttpRequest begin();
    // The helper answered: true when a configuration was read.
    bool on_response(const HttpResponse& response);
    // The helper did not answer (`reason`).
    void on_no_answer(const std::string& reason);

private:
    std::optional<PublicConfig> value_;
    std::string error_;
    bool loading_ = false;
};

}  // namespace roomkey::app
