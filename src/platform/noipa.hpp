// WEFT_NOIPA: a function whose calls the compiler may neither inline nor reason about from
// its body: every call is made, and its answer is not reused across other code (as when the
// function reads the running OS thread's TLS or pthread_self(), which change under a fiber
// that moves between threads). GCC's noipa says exactly that. Clang has no noipa and noinline
// is not enough there: it still derives from the body that the function reads no memory, and
// merges two calls around a switch into one. optnone (which implies noinline) keeps Clang's
// interprocedural passes from deriving that; the body is left unoptimised, which for these
// few-instruction functions costs little.
#pragma once

#if defined(__clang__)
#define WEFT_NOIPA [[clang::optnone]]
#else
#define WEFT_NOIPA [[gnu::noipa]]
#endif
