// Address space reserved up front and backed by memory only where it is touched: a worker's
// task stack can then be as deep as its thread stack allows while a shallow program pays
// for the pages it uses, not for the reservation.
#pragma once

#include <cstddef>

namespace weft::platform {

// Reserves `bytes` of zero-filled, readable and writable memory whose pages are committed
// on first touch (MAP_NORESERVE: no swap is reserved for the untouched rest). Aligned to a
// page. Throws std::system_error naming `what` if the address space cannot be had.
void* reserve_zeroed(std::size_t bytes, const char* what);

// Returns a reservation made by reserve_zeroed (its pages with it).
void release_reserved(void* base, std::size_t bytes) noexcept;

}  // namespace weft::platform
