# build_jobs.sh: sourced by run.sh and test.sh before they build.
# One compile job per core, not ninja's default of cores + 2: on this 2-core
# machine the extra jobs only contended. Clean builds, same clone, same
# session (2026-11-25), 8-file unity batches: native 156 s at -j 2 against
# 184 s at ninja's -j 4, wasm 158 against 164 s (without unity batches,
# native 317 against 397 s).
# A CMAKE_BUILD_PARALLEL_LEVEL already set wins.
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
