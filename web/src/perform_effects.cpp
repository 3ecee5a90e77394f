// perform_effects.cpp: see perform_effects.hpp.
#include "perform_effects.hpp"

#include <type_traits>
#include <variant>

#include "browser.hpp"
#include "fetch_transport.hpp"
#include "file_transfer.hpp"
#include "text_layer.hpp"

namespace roomkey::web {

std::vector<std::uint64_t> perform_effects(std::vector<app::Effect> effects, app::effect::PickFile& pick) {
    namespace effect = app::effect;
    std::vector<std::uint64_t> sent;
    for (auto& e : effects) {
        std::visit(
            [&](auto& item) {
                using T = std::decay_t<decltype(item)>;
                if constexpr (std::is_same_v<T, effect::Send>) {
                    fetch_start(item.id, item.request, item.upload_progress ? kUploadTimeoutMs : kFetchTimeoutMs,
                                item.upload_progress);
                    sent.push_back(item.id);
                } else if constexpr (std::is_same_v<T, effect::PickFile>) {
                    pick = item;
                    open_file_picker();
                } else if constexpr (std::is_same_v<T, effect::OpenUrl>) {
                    open_download(item.url);
                } else if constexpr (std::is_same_v<T, effect::StorePending>) {
                    store_pending_authorization(item.record);
                } else if constexpr (std::is_same_v<T, effect::Navigate>) {
                    navigate(item.url);
                } else if constexpr (std::is_same_v<T, effect::CopyText>) {
                    copy_to_clipboard(item.text);
                } else if constexpr (std::is_same_v<T, effect::ForgetClipboard>) {
                    forget_clipboard(item.system);
                } else if constexpr (std::is_same_v<T, effect::ForgetPending>) {
                    forget_pending_authorization();
                } else if constexpr (std::is_same_v<T, effect::StorePosts>) {
                    store_posts(item.record);
                } else if constexpr (std::is_same_v<T, effect::SaveFile>) {
                    save_file(item.name, item.mime, item.text);
                } else if constexpr (std::is_same_v<T, effect::SelectText> || std::is_same_v<T, effect::CopySelection>) {
                    text_layer::perform(item);
                }
            },
            e);
    }
    return sent;
}

}  // namespace roomkey::web
