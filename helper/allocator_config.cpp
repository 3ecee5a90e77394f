// allocator_config.cpp: jemalloc's settings, compiled into roomkey-helper and
// roomkey-sandbox (helper/CMakeLists.txt links jemalloc into both programs,
// except in sanitizer builds, whose runtime brings its own allocator).
//
// Why jemalloc: under bench/soak.sh (64 keep-alive TLS connections plus 32
// idle or dripping ones, 128 worker threads) glibc's malloc let the helper's
// RSS climb +20 % in the 60 s after warm-up, while the heap in use stayed
// near 10 MB (heaptrack) and malloc_trim() gave back under 1 MB: free space
// split over its per-thread arenas, between long-lived TLS objects, that it
// could not return. MALLOC_ARENA_MAX=2 still grew +12 %; mimalloc +14 %.
// jemalloc with these settings held it flat (-3.9 % in bench/soak.sh).
//   narenas:4        a few arenas for 128 mostly idle threads
//   dirty_decay_ms   freed pages go back to the system after about a second
//   muzzy_decay_ms:0 ... and are not kept half-returned
// MALLOC_CONF in the environment still overrides these.
extern "C" {
// jemalloc reads this symbol at start-up (its documented compile-time way).
// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables)
const char* malloc_conf = "narenas:4,dirty_decay_ms:1000,muzzy_decay_ms:0";
}
