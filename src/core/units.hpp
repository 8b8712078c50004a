#pragma once
// Sizes and rates as people write them: "1.5TiB", "500GB", "4k", "200MB/s", "5x-ram".
// Parsers throw usage_error naming the option and the accepted forms.
#include <cstdint>
#include <string>
#include <string_view>

namespace dlsize::units {

// Parses a byte count. Decimal (kB, MB, GB, TB, PB) and binary (KiB, MiB, GiB, TiB, PiB; also
// k, K, M, G, T as binary, as fio does) suffixes; "Nx-ram" multiplies ram_bytes.
std::uint64_t parse_size(std::string_view text, std::string_view option,
                         std::uint64_t ram_bytes = 0);

// Parses a rate into bytes per second. Bytes: a number with B, kB, MB, GB, TB, PB (decimal) or
// KiB ... PiB (binary), "/s" optional; a bare number is bytes/s. Bits (network figures, always
// decimal): "25Gb/s", "25Gbit/s", "25Gbps", "400GbE" (= 50 GB/s line rate). A bare prefix
// ("25G") is refused: it meant GiB/s to dlsize and Gb/s to whoever read a NIC's datasheet.
double parse_rate(std::string_view text, std::string_view option);

// Parses a duration: "90", "90s", "5m", "1h", "250ms". Returns seconds.
double parse_duration(std::string_view text, std::string_view option);
// A fraction in (0, 1] such as 0.9 (an AU threshold), or a percent such as "90%". Throws
// usage_error naming option.
double parse_fraction(std::string_view text, std::string_view option);

// "1.23 GiB" style (binary) and "1.32 GB" style (decimal) formatting.
std::string format_bytes_binary(double bytes);
std::string format_bytes_decimal(double bytes);
// "123.4 MB/s (117.7 MiB/s)": both, since people confuse them.
std::string format_rate_both(double bytes_per_s);
// A statistic in plain digits: 4 significant ones, but never an exponent for large values
// (25060, not 2.506e+04), which tables meant for people must not show.
std::string format_plain(double v);

} // namespace dlsize::units
