#include "families/galois_field.hpp"

#include "nettopo/support/error.hpp"

namespace nettopo::detail {

std::optional<PrimePower> prime_power(std::uint32_t q) {
    if (q < 2) return std::nullopt;
    std::uint32_t p = q;
    for (std::uint32_t d = 2; std::uint64_t{d} * d <= q; ++d)
        if (q % d == 0) {
            p = d;
            break;
        }
    std::uint32_t e = 0;
    while (q % p == 0) {
        q /= p;
        ++e;
    }
    if (q != 1) return std::nullopt;
    return PrimePower{p, e};
}

namespace {

// Multiplies polynomial `a` (base-p digits) by x modulo the monic polynomial
// x^e + low, where `low` holds its lower coefficients as digits.
std::uint32_t times_x(std::uint32_t a, std::uint32_t low, std::uint32_t p, std::uint32_t e,
                      std::uint32_t q) {
    const std::uint32_t top = a / (q / p); // coefficient of x^(e-1)
    std::uint32_t shifted = a % (q / p) * p;
    // x^e = -low: subtract top * low digit by digit.
    std::uint32_t result = 0;
    for (std::uint32_t i = 0, place = 1; i < e; ++i, place *= p) {
        const std::uint32_t s = shifted / place % p, l = low / place % p;
        result += (s + p * p - top * l % p) % p * place;
    }
    return result;
}

} // namespace

GaloisField::GaloisField(PrimePower pp) : p_(pp.prime), e_(pp.exponent), q_(1) {
    for (std::uint32_t i = 0; i < e_; ++i) q_ *= p_;
    exp_.resize(q_ - 1);
    log_.assign(q_, 0);
    // For e = 1, "x" is the constant p - low: every choice of low is a
    // candidate primitive root. For e > 1, a monic polynomial of degree e is
    // primitive when x has order q - 1 modulo it; then it is irreducible too.
    const std::uint32_t x = e_ == 1 ? 0 : p_;
    for (std::uint32_t low = 1; low < q_; ++low) {
        std::uint32_t v = 1, i = 0;
        const std::uint32_t xi = e_ == 1 ? (p_ - low) % p_ : x;
        if (xi == 0) continue;
        do {
            exp_[i++] = v;
            v = e_ == 1 ? static_cast<std::uint32_t>(std::uint64_t{v} * xi % p_)
                        : times_x(v, low, p_, e_, q_);
        } while (v != 1 && v != 0 && i < q_ - 1);
        if (v == 1 && i == q_ - 1) {
            for (std::uint32_t k = 0; k < q_ - 1; ++k) log_[exp_[k]] = k;
            return;
        }
    }
    throw Error("no primitive polynomial found for GF(q)"); // impossible for a prime power
}

std::uint32_t GaloisField::add(std::uint32_t a, std::uint32_t b) const {
    if (e_ == 1) return (a + b) % p_;
    std::uint32_t r = 0;
    for (std::uint32_t place = 1; place < q_; place *= p_)
        r += (a / place % p_ + b / place % p_) % p_ * place;
    return r;
}

std::uint32_t GaloisField::negate(std::uint32_t a) const {
    if (e_ == 1) return (p_ - a) % p_;
    std::uint32_t r = 0;
    for (std::uint32_t place = 1; place < q_; place *= p_) r += (p_ - a / place % p_) % p_ * place;
    return r;
}

std::uint32_t GaloisField::mul(std::uint32_t a, std::uint32_t b) const {
    if (a == 0 || b == 0) return 0;
    return exp_[(log_[a] + log_[b]) % (q_ - 1)];
}

} // namespace nettopo::detail
