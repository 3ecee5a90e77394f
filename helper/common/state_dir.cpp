// state_dir.cpp: the state directory and the small file helpers around it (POSIX).
#include "common/state_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace roomkey::native {
namespace {

std::string errno_text(int err) { return std::strerror(err); }

bool is_directory(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string default_state_dir() {
    const char* xdg = std::getenv("XDG_STATE_HOME");
    if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/roomkey";
    const char* home = std::getenv("HOME");
    if (home != nullptr && home[0] != '\0') return std::string(home) + "/.local/state/roomkey";
    return {};
}

Result<Unit, std::string> ensure_private_dir(const std::string& path) {
    if (path.empty()) return Err{std::string("state directory: no path (set --state-dir, XDG_STATE_HOME or HOME)")};
    // Parents first, with the usual 0755 (they are ~/.local/state and the like).
    for (std::size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
        const std::string parent = path.substr(0, slash);
        if (::mkdir(parent.c_str(), 0755) != 0 && errno != EEXIST) {
            return Err{"state directory " + path + ": cannot create " + parent + ": " + errno_text(errno)};
        }
    }
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
        return Err{"state directory " + path + ": " + errno_text(errno)};
    }
    if (!is_directory(path)) return Err{"state directory " + path + ": exists but is not a directory"};
    return Unit{};
}

Result<Unit, std::string> write_file_atomically(const std::string& path, const std::string& content,
                                                unsigned mode) {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, static_cast<mode_t>(mode));
    if (fd < 0) return Err{"cannot write " + tmp + ": " + errno_text(errno)};
    // open() applies the umask; the mode must hold exactly (0600 for keys).
    ::fchmod(fd, static_cast<mode_t>(mode));
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            const int err = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            return Err{"cannot write " + tmp + ": " + errno_text(err)};
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return Err{"cannot write " + tmp + ": " + errno_text(err)};
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return Err{"cannot rename " + tmp + " to " + path + ": " + errno_text(err)};
    }
    return Unit{};
}

Result<std::string, std::string> read_whole_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Err{"cannot read " + path + ": " + errno_text(errno)};
    std::ostringstream out;
    out << in.rdbuf();
    if (in.bad()) return Err{"cannot read " + path};
    return out.str();
}

}  // namespace roomkey::native
