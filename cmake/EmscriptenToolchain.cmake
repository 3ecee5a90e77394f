# Toolchain wrapper for Debian's Emscripten 3.1.6 (see ../shared/TOOLCHAIN.md
# in the team notes). It loads Emscripten's own platform file and works around
# what that version gets wrong on this machine.
include(/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake)

# emcc's JS optimizer needs 'acorn', which Debian installs in /usr/share/nodejs
# where NodeSource's node does not look: pass NODE_PATH to every compile and link.
# Setting the launcher here replaces the one a developer asked for (e.g.
# CMAKE_CXX_COMPILER_LAUNCHER=ccache from the environment): keep ccache when
# asked, it works with em++ and saves minutes on every fresh tree.
set(ROOMKEY_EM_LAUNCHER env NODE_PATH=/usr/share/nodejs)
if("$ENV{CMAKE_CXX_COMPILER_LAUNCHER}" MATCHES "ccache")
    list(APPEND ROOMKEY_EM_LAUNCHER "$ENV{CMAKE_CXX_COMPILER_LAUNCHER}")
endif()
set(CMAKE_C_COMPILER_LAUNCHER ${ROOMKEY_EM_LAUNCHER})
set(CMAKE_CXX_COMPILER_LAUNCHER ${ROOMKEY_EM_LAUNCHER})
# The closure compiler Debian ships fails; the npm one (scripts/setup.sh) works
# when emcc finds it through EM_CLOSURE_COMPILER.
get_filename_component(ROOMKEY_CLOSURE "${CMAKE_CURRENT_LIST_DIR}/../node_modules/.bin/google-closure-compiler" ABSOLUTE)
set(CMAKE_C_LINKER_LAUNCHER env NODE_PATH=/usr/share/nodejs EM_CLOSURE_COMPILER=${ROOMKEY_CLOSURE})
set(CMAKE_CXX_LINKER_LAUNCHER env NODE_PATH=/usr/share/nodejs EM_CLOSURE_COMPILER=${ROOMKEY_CLOSURE})

# ctest runs wasm test binaries under Node. --no-experimental-fetch: Emscripten
# 3.1.6 output otherwise fails to load its .wasm under Node 18+ ("Failed to
# parse URL from ....wasm").
find_program(ROOMKEY_NODE node REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR "${ROOMKEY_NODE};--no-experimental-fetch" CACHE STRING "" FORCE)
