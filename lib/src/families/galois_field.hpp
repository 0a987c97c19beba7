// Arithmetic in the finite field GF(q), q = p^e a prime power, for the slim
// fly construction. Elements are 0..q-1: the base-p digits of an element are
// the coefficients of a polynomial over Z_p, reduced modulo a primitive
// polynomial of degree e found by search. Multiplication goes through
// discrete logarithms to the primitive element x.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace nettopo::detail {

struct PrimePower {
    std::uint32_t prime, exponent;
};
// nullopt when q is not a prime power (or q < 2).
std::optional<PrimePower> prime_power(std::uint32_t q);

class GaloisField {
public:
    explicit GaloisField(PrimePower pp);
    std::uint32_t order() const { return q_; }
    std::uint32_t add(std::uint32_t a, std::uint32_t b) const;
    std::uint32_t negate(std::uint32_t a) const;
    std::uint32_t sub(std::uint32_t a, std::uint32_t b) const { return add(a, negate(b)); }
    std::uint32_t mul(std::uint32_t a, std::uint32_t b) const;
    // xi^e for the primitive element xi, any e >= 0.
    std::uint32_t power(std::uint64_t e) const { return exp_[e % (q_ - 1)]; }

private:
    std::uint32_t p_, e_, q_;
    std::vector<std::uint32_t> exp_; // xi^i, i < q-1
    std::vector<std::uint32_t> log_; // inverse of exp_ on nonzero elements
};

} // namespace nettopo::detail
