# PackageWebDist.cmake: the last step of the web build, run as a script
# (cmake -P) after roomkey.js/.wasm are linked. It makes web/dist/ ready to
# serve fast:
#   - content-hashed copies roomkey.<hash>.js and roomkey.<hash>.wasm, which
#     roomkey-helper sends with `immutable` caching (a new build gets new
#     names, so a browser never runs a stale pair);
#   - page.js from shell/page.js with those names filled in (page.js itself
#     is revalidated on every load, so it always names the current pair);
#   - .br and .gz siblings of every text and wasm file, which the helper
#     serves when the browser accepts them (brotli first).
#   - page.js's own words (said before the app runs: loading, a failed
#     start, the page's labels) from the catalog's "shell." entries, every
#     language (web/i18n/*.json, docs/i18n.md);
# Inputs: -DDIST=<web/dist> -DPAGE_JS=<shell/page.js> -DCATALOG_DIR=<web/i18n>
#         -DBROTLI=<path or empty> -DGZIP=<path>
cmake_minimum_required(VERSION 3.20)
foreach(var DIST PAGE_JS CATALOG_DIR GZIP)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "PackageWebDist.cmake needs -D${var}=...")
    endif()
endforeach()

# Old hashed files and compressed siblings go first: only the current build's
# names may be served, and compressed files are made afresh below.
file(GLOB stale "${DIST}/roomkey.*.js" "${DIST}/roomkey.*.wasm" "${DIST}/*.br" "${DIST}/*.gz")
if(stale)
    file(REMOVE ${stale})
endif()

# 16 hex digits (64 bits) of SHA-256: collisions are not a concern for a
# cache key, and the names stay short.
function(hashed_copy file ext out_name)
    file(SHA256 "${DIST}/${file}" digest)
    string(SUBSTRING "${digest}" 0 16 short)
    set(name "roomkey.${short}.${ext}")
    file(COPY_FILE "${DIST}/${file}" "${DIST}/${name}")
    set(${out_name} "${name}" PARENT_SCOPE)
endfunction()
hashed_copy(roomkey.js js js_name)
hashed_copy(roomkey.wasm wasm wasm_name)

# page.js declares `var ASSETS = { js: 'roomkey.js', wasm: 'roomkey.wasm' };`:
# the plain names work unpackaged (e.g. a raw copy of shell/), the hashed ones
# are filled in here. A page.js without that line is a build error, not a
# page that silently loads stale files.
file(READ "${PAGE_JS}" page)
set(plain "var ASSETS = { js: 'roomkey.js', wasm: 'roomkey.wasm' };")
string(FIND "${page}" "${plain}" at)
if(at EQUAL -1)
    message(FATAL_ERROR "${PAGE_JS} must contain the line: ${plain}")
endif()
string(REPLACE "${plain}" "var ASSETS = { js: '${js_name}', wasm: '${wasm_name}' };" page "${page}")

# `var PAGE_WORDS = {};` becomes {"en": {"shell.loading": "...", ...}, "ja": {...}}:
# each "shell." entry of a catalog copied as written (a JSON string is a
# JavaScript string). Plain texts only: a "shell." entry is never a count.
set(plain_words "var PAGE_WORDS = {};")
string(FIND "${page}" "${plain_words}" at)
if(at EQUAL -1)
    message(FATAL_ERROR "${PAGE_JS} must contain the line: ${plain_words}")
endif()
file(GLOB catalogs "${CATALOG_DIR}/*.json")
set(all_words "")
foreach(catalog ${catalogs})
    get_filename_component(lang "${catalog}" NAME_WE)
    file(READ "${catalog}" rest)
    set(entries "")
    # One match at a time (no CMake list: a text may hold ';' or '[').
    while(TRUE)
        string(REGEX MATCH "\"shell\\.[a-z0-9_.]+\": \"([^\"\\\\]|\\\\.)*\"" entry "${rest}")
        if(entry STREQUAL "")
            break()
        endif()
        string(FIND "${rest}" "${entry}" from)
        string(LENGTH "${entry}" length)
        math(EXPR from "${from} + ${length}")
        string(SUBSTRING "${rest}" ${from} -1 rest)
        if(NOT entries STREQUAL "")
            string(APPEND entries ", ")
        endif()
        string(APPEND entries "${entry}")
    endwhile()
    if(NOT all_words STREQUAL "")
        string(APPEND all_words ", ")
    endif()
    string(APPEND all_words "\"${lang}\": {${entries}}")
endforeach()
string(REPLACE "${plain_words}" "var PAGE_WORDS = {${all_words}};" page "${page}")
file(WRITE "${DIST}/page.js" "${page}")

file(GLOB compressible "${DIST}/*.html" "${DIST}/*.css" "${DIST}/*.js" "${DIST}/*.wasm")
foreach(file ${compressible})
    # -n: no name or time stamp in the header, so equal inputs give equal files.
    execute_process(COMMAND "${GZIP}" -9 -n -k -f "${file}" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "gzip failed on ${file}")
    endif()
    if(BROTLI)
        execute_process(COMMAND "${BROTLI}" -q 11 -k -f "${file}" RESULT_VARIABLE rc)
        if(NOT rc EQUAL 0)
            message(FATAL_ERROR "brotli failed on ${file}")
        endif()
    endif()
endforeach()
message(STATUS "web/dist: ${js_name}, ${wasm_name} (+ .br/.gz)")
