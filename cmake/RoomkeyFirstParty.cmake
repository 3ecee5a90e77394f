# roomkey_first_party(target): how every first-party target builds.
# - The warning set, and -Werror with ROOMKEY_WERROR.
# - Unity batches (CMake's UNITY_BUILD, 4 sources per compiler run) with
#   ROOMKEY_UNITY_BUILD, on by default. Most of a file's compile time here
#   is parsing the same big headers (GoogleTest, cpp-httplib, nlohmann_json:
#   4-7 s each on this 2-core machine), so a batch parses them once.
#   Clean native build at -j 2, one clone, one session (2026-11-25): 317 s
#   without batches, 180 s with 4 files, 156 s with 8. Touching one file then
#   rebuilt in 10-17 s without, 13-20 s with 4, 27 s with 8: 4 keeps the edit
#   loop about as fast as before.
#   A file's anonymous-namespace names and file-scope `using` are then seen by
#   the files after it in its batch: give file-local helpers names that say
#   what they are, and include what a file uses. For a tight edit loop on one
#   file, configure with -DROOMKEY_UNITY_BUILD=OFF.
# Third-party targets (Dear ImGui, GoogleTest) keep their own settings:
# ImGui's backends pick GL features from which headers came before them.
option(ROOMKEY_UNITY_BUILD "Compile first-party sources in unity batches" ON)

function(roomkey_first_party target)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
            -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
            -Wconversion -Wsign-conversion -Wno-sign-conversion -Wimplicit-fallthrough)
        if(ROOMKEY_WERROR)
            target_compile_options(${target} PRIVATE -Werror)
        endif()
    endif()
    set_target_properties(${target} PROPERTIES UNITY_BUILD ${ROOMKEY_UNITY_BUILD} UNITY_BUILD_BATCH_SIZE 4)
endfunction()
