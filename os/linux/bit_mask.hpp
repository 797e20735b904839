// os/linux/bit_mask.hpp: the kernel's bit masks of unsigned longs (sched_setaffinity's CPU
// sets, set_mempolicy's node sets): bit b is bit b % kBitsPerWord of word b / kBitsPerWord.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <vector>

namespace glint::os::linux_ {

using BitMask = std::vector<unsigned long>;
inline constexpr std::size_t kBitsPerWord = sizeof(unsigned long) * CHAR_BIT;

// The smallest mask with exactly `bits` set; empty when `bits` is.
inline BitMask bit_mask(const std::vector<unsigned>& bits) {
    if (bits.empty()) return {};
    BitMask mask(*std::max_element(bits.begin(), bits.end()) / kBitsPerWord + 1, 0);
    for (unsigned b : bits) mask[b / kBitsPerWord] |= 1UL << (b % kBitsPerWord);
    return mask;
}

inline bool has_bit(const BitMask& mask, unsigned bit) {
    return bit / kBitsPerWord < mask.size() &&
           (mask[bit / kBitsPerWord] >> (bit % kBitsPerWord)) & 1UL;
}

}  // namespace glint::os::linux_
