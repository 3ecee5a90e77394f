# Third-party code, found on the system (Debian packages) or in third_party/
# (fetched by scripts/setup.sh). Nothing third-party is committed.
#
# Targets provided:
#   roomkey::json     nlohmann_json (header-only, native and wasm)
#   roomkey::gtest    GoogleTest + gtest_main (system lib natively, built from
#                     /usr/src/googletest for wasm)
#   roomkey::httplib  cpp-httplib 0.18.7 with OpenSSL, zlib and brotli (native
#                     only; header-only upstream, its implementation compiled once)
#   roomkey::imgui    Dear ImGui 1.90.1 + GLFW/OpenGL3 backends (wasm only)

# Dear ImGui 1.90.1 from Debian 13's source package (scripts/setup.sh fetches
# it, pinned to that version). A plain variable, not a cache entry: a build
# tree configured when the pin was 1.86 (third_party/imgui) must not keep
# building against it.
set(ROOMKEY_IMGUI_DIR "${PROJECT_SOURCE_DIR}/third_party/imgui-1.90.1")

if(EMSCRIPTEN)
    # Emscripten must not see /usr/include (host headers); expose only the
    # nlohmann folder through a private include root in the build tree.
    set(_sysinc "${CMAKE_BINARY_DIR}/sysinc")
    file(MAKE_DIRECTORY "${_sysinc}")
    if(NOT EXISTS "${_sysinc}/nlohmann")
        file(CREATE_LINK /usr/include/nlohmann "${_sysinc}/nlohmann" SYMBOLIC)
    endif()
    add_library(roomkey_json INTERFACE)
    target_include_directories(roomkey_json SYSTEM INTERFACE "${_sysinc}")
    add_library(roomkey::json ALIAS roomkey_json)

    set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory(/usr/src/googletest "${CMAKE_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL SYSTEM)
    add_library(roomkey_gtest INTERFACE)
    target_link_libraries(roomkey_gtest INTERFACE gtest gtest_main)
    add_library(roomkey::gtest ALIAS roomkey_gtest)

    if(NOT EXISTS "${ROOMKEY_IMGUI_DIR}/imgui.cpp")
        message(FATAL_ERROR "Dear ImGui sources are missing in ${ROOMKEY_IMGUI_DIR}: run ./scripts/setup.sh")
    endif()
    add_library(roomkey_imgui STATIC
        "${ROOMKEY_IMGUI_DIR}/imgui.cpp"
        "${ROOMKEY_IMGUI_DIR}/imgui_draw.cpp"
        "${ROOMKEY_IMGUI_DIR}/imgui_tables.cpp"
        "${ROOMKEY_IMGUI_DIR}/imgui_widgets.cpp"
        "${ROOMKEY_IMGUI_DIR}/backends/imgui_impl_glfw.cpp"
        "${ROOMKEY_IMGUI_DIR}/backends/imgui_impl_opengl3.cpp"
        "${PROJECT_SOURCE_DIR}/web/imgui_hooks/imgui_hooks.cpp")
    target_include_directories(roomkey_imgui SYSTEM PUBLIC "${ROOMKEY_IMGUI_DIR}" "${ROOMKEY_IMGUI_DIR}/backends")
    target_include_directories(roomkey_imgui PUBLIC "${PROJECT_SOURCE_DIR}/web/imgui_hooks")
    # No demo window in the shipped build, and no file I/O (imgui.ini).
    # 32-bit ImWchar: emoji and the other planes beyond the BMP. The item
    # hooks (IMGUI_ENABLE_TEST_ENGINE) feed the accessibility tree; see
    # web/imgui_hooks/imgui_hooks.hpp, which also wraps ImGui's UTF-8 decoder:
    # imgui.cpp defines it under another name, the wrapper calls it.
    target_compile_definitions(roomkey_imgui PUBLIC IMGUI_DISABLE_DEMO_WINDOWS IMGUI_DISABLE_DEBUG_TOOLS
                               IMGUI_USE_WCHAR32 IMGUI_ENABLE_TEST_ENGINE)
    set_source_files_properties("${ROOMKEY_IMGUI_DIR}/imgui.cpp" PROPERTIES
        COMPILE_DEFINITIONS "ImTextCharFromUtf8=roomkey_imgui_ImTextCharFromUtf8")
    add_library(roomkey::imgui ALIAS roomkey_imgui)
else()
    find_package(nlohmann_json 3.10 REQUIRED)
    add_library(roomkey_json INTERFACE)
    target_link_libraries(roomkey_json INTERFACE nlohmann_json::nlohmann_json)
    add_library(roomkey::json ALIAS roomkey_json)

    find_package(GTest REQUIRED)
    add_library(roomkey_gtest INTERFACE)
    target_link_libraries(roomkey_gtest INTERFACE GTest::gtest GTest::gtest_main)
    add_library(roomkey::gtest ALIAS roomkey_gtest)

    # cpp-httplib 0.18.7 from Debian 13's source package (scripts/setup.sh
    # fetches it, Debian's CVE patches applied). httplib.h is ~10,000 lines
    # of inline code: its own split.py cuts it, at configure time, into a
    # declarations-only httplib.h and an httplib.cc in the build tree, so
    # the implementation is compiled once (one TU) instead of in every file
    # that includes it. The feature macros are the ones Debian 12's compiled
    # 0.11.4 was built with (pkg-config cpp-httplib gave them), PUBLIC so
    # that every TU sees the same class layouts as httplib.cc.
    set(ROOMKEY_HTTPLIB_DIR "${PROJECT_SOURCE_DIR}/third_party/cpp-httplib-0.18.7" CACHE PATH
        "cpp-httplib sources (scripts/setup.sh fetches them)")
    if(NOT EXISTS "${ROOMKEY_HTTPLIB_DIR}/httplib.h" OR NOT EXISTS "${ROOMKEY_HTTPLIB_DIR}/split.py")
        message(FATAL_ERROR "cpp-httplib sources are missing in ${ROOMKEY_HTTPLIB_DIR}: run ./scripts/setup.sh")
    endif()
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
    set(_httplib_split "${CMAKE_BINARY_DIR}/cpp-httplib")
    execute_process(COMMAND "${Python3_EXECUTABLE}" "${ROOMKEY_HTTPLIB_DIR}/split.py" --out "${_httplib_split}"
                    RESULT_VARIABLE _split_result OUTPUT_QUIET)
    if(NOT _split_result EQUAL 0 OR NOT EXISTS "${_httplib_split}/httplib.cc")
        message(FATAL_ERROR "cpp-httplib: split.py failed (${_split_result})")
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${ROOMKEY_HTTPLIB_DIR}/httplib.h")

    find_package(OpenSSL 3 REQUIRED)
    find_package(ZLIB REQUIRED)
    find_package(Threads REQUIRED)
    find_package(PkgConfig REQUIRED)
    pkg_check_modules(BROTLI REQUIRED IMPORTED_TARGET libbrotlienc libbrotlidec)
    add_library(roomkey_httplib STATIC "${_httplib_split}/httplib.cc")
    target_include_directories(roomkey_httplib SYSTEM PUBLIC "${_httplib_split}")
    target_compile_definitions(roomkey_httplib PUBLIC
        CPPHTTPLIB_OPENSSL_SUPPORT CPPHTTPLIB_ZLIB_SUPPORT CPPHTTPLIB_BROTLI_SUPPORT
        # httplib listens with a backlog of 5 by default: a burst of new
        # connections (a page load, 8 benchmark clients) overflows it and
        # the kernel drops SYNs, which costs a 1 s retransmit.
        "CPPHTTPLIB_LISTEN_BACKLOG=SOMAXCONN"
        # poll(), not select(): httplib answers 500 to any request on a
        # socket numbered FD_SETSIZE (1024) or above, which a flood of
        # connections reaches (tests/integration/helper_slow_clients_test.cpp).
        CPPHTTPLIB_USE_POLL)
    target_link_libraries(roomkey_httplib PUBLIC OpenSSL::SSL OpenSSL::Crypto ZLIB::ZLIB PkgConfig::BROTLI Threads::Threads)
    add_library(roomkey::httplib ALIAS roomkey_httplib)
endif()
