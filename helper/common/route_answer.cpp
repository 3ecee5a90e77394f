// route_answer.cpp: the per-thread mark of route_answer.hpp.
#include "common/route_answer.hpp"

namespace roomkey::native {
namespace {

thread_local bool t_route_answer = false;

}  // namespace

void mark_route_answer() { t_route_answer = true; }

bool is_route_answer() { return t_route_answer; }

void clear_route_answer() { t_route_answer = false; }

}  // namespace roomkey::native
