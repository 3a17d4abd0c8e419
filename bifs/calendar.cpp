// Calendar time: erlang:date/0, time/0, localtime_to_universaltime/2,
// universaltime_to_localtime/1, universaltime_to_posixtime/1, posixtime_to_universaltime/1
// (erts' bif.c over erl_time_sup.c), and localtime_to_universaltime/1 (Erlang in OTP's
// erlang.erl, native here so that a failure names it with its one argument, as erl's does).
// localtime/0 and universaltime/0 are in bifs/system_time.cpp.
//
// Conversions between local and universal time go through the C library (mktime, localtime_r,
// gmtime_r), as erts does, so they follow the same TZ rules as erl on this machine. The
// arithmetic between dates and POSIX seconds is erts' own (proleptic Gregorian calendar).
#include <climits>
#include <ctime>
#include <optional>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/bignum.hpp"

namespace beam {
namespace {

constexpr int64_t SECONDS_PER_DAY = 86400;
// erts' BASEYEAR: the earliest year the C library's conversions handle on every platform.
constexpr int64_t BASE_YEAR = 1902;
// univ_to_seconds counts days from this year.
constexpr int64_t GREGORIAN_BASE_YEAR = 1600;
constexpr int MONTH_DAYS[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

struct DateTime {
    int64_t year, month, day, hour, minute, second;
};

bool leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// erts' time_to_parts: {{Y,M,D},{H,Mi,S}} of small integers, not yet range-checked.
std::optional<DateTime> parts(Term t) {
    if (!is_tuple(t) || tuple_arity(t) != 2) return std::nullopt;
    Term d = tuple_elem(t, 0), c = tuple_elem(t, 1);
    if (!is_tuple(d) || !is_tuple(c) || tuple_arity(d) != 3 || tuple_arity(c) != 3) return std::nullopt;
    for (int i = 0; i < 3; ++i)
        if (!is_small(tuple_elem(d, i)) || !is_small(tuple_elem(c, i))) return std::nullopt;
    return DateTime{small_value(tuple_elem(d, 0)), small_value(tuple_elem(d, 1)), small_value(tuple_elem(d, 2)),
                    small_value(tuple_elem(c, 0)), small_value(tuple_elem(c, 1)), small_value(tuple_elem(c, 2))};
}

// A valid date and time from `min_year` on (erts checks years up to INT_MAX - 1).
bool valid(const DateTime& t, int64_t min_year) {
    if (t.year < min_year || t.year > INT_MAX - 1 || t.month < 1 || t.month > 12) return false;
    int64_t days = MONTH_DAYS[t.month] + (t.month == 2 && leap(t.year));
    return t.day >= 1 && t.day <= days && t.hour >= 0 && t.hour <= 23 && t.minute >= 0 && t.minute <= 59 &&
           t.second >= 0 && t.second <= 59;
}

// Days from 1970-01-01 (erts' gregday, valid from 1600 on).
int64_t days_since_epoch(int64_t year, int64_t month, int64_t day) {
    int64_t n = 0, g = year - GREGORIAN_BASE_YEAR;
    if (g > 0) {
        int64_t p = g - 1;
        n = p / 4 - p / 100 + p / 400 + p * 365 + 366;
    }
    for (int64_t m = 1; m < month; ++m) n += MONTH_DAYS[m];
    if (leap(year) && month > 2) ++n;
    return n + day - 1 - 135140;  // 135140: days from 1600-01-01 to 1970-01-01
}

Term date_time_term(Process* p, const DateTime& t) {
    return make_tuple(*p, {make_tuple(*p, {make_small(t.year), make_small(t.month), make_small(t.day)}),
                           make_tuple(*p, {make_small(t.hour), make_small(t.minute), make_small(t.second)})});
}

DateTime from_tm(const std::tm& tm) {
    return {int64_t(tm.tm_year) + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec};
}

// erts' erl_mktime: mktime answers -1 both on error and for one second before the epoch.
std::optional<std::time_t> checked_mktime(std::tm tm) {
    std::tm copy = tm;
    std::time_t c = std::mktime(&copy);
    if (c != -1) return c;
    tm.tm_sec -= 1;
    if (std::mktime(&tm) == -2) return std::time_t(-1);
    return std::nullopt;
}

Term date_0(Process* p, const Term*) {
    std::time_t now = std::time(nullptr);
    std::tm tm;
    localtime_r(&now, &tm);
    return make_tuple(*p, {make_small(tm.tm_year + 1900), make_small(tm.tm_mon + 1), make_small(tm.tm_mday)});
}

Term time_0(Process* p, const Term*) {
    std::time_t now = std::time(nullptr);
    std::tm tm;
    localtime_r(&now, &tm);
    return make_tuple(*p, {make_small(tm.tm_hour), make_small(tm.tm_min), make_small(tm.tm_sec)});
}

Term localtime_to_universaltime_2(Process* p, const Term* a) {
    int isdst;
    if (a[1] == am::true_) isdst = 1;
    else if (a[1] == am::false_) isdst = 0;
    else if (a[1] == am::undefined) isdst = -1;
    else return p->badarg();
    auto t = parts(a[0]);
    if (!t || !valid(*t, BASE_YEAR)) return p->badarg();
    std::tm tm{};
    tm.tm_year = int(t->year - 1900);
    tm.tm_mon = int(t->month - 1);
    tm.tm_mday = int(t->day);
    tm.tm_hour = int(t->hour);
    tm.tm_min = int(t->minute);
    tm.tm_sec = int(t->second);
    tm.tm_isdst = isdst;
    auto clock = checked_mktime(tm);
    if (!clock && isdst) {
        // A zone without DST refuses a DST time; erts then answers as if isdst were false.
        tm.tm_isdst = 0;
        clock = checked_mktime(tm);
    }
    std::tm out;
    if (!clock || !gmtime_r(&*clock, &out)) return p->badarg();
    return date_time_term(p, from_tm(out));
}

Term localtime_to_universaltime_1(Process* p, const Term* a) {
    const Term args[2] = {a[0], am::undefined};
    return localtime_to_universaltime_2(p, args);
}

Term universaltime_to_localtime_1(Process* p, const Term* a) {
    auto t = parts(a[0]);
    if (!t || !valid(*t, BASE_YEAR)) return p->badarg();
    std::time_t clock = t->second + 60 * (t->minute + 60 * (t->hour + 24 * days_since_epoch(t->year, t->month, t->day)));
    std::tm out;
    if (!localtime_r(&clock, &out)) return p->badarg();
    return date_time_term(p, from_tm(out));
}

Term universaltime_to_posixtime_1(Process* p, const Term* a) {
    auto t = parts(a[0]);
    if (!t || !valid(*t, GREGORIAN_BASE_YEAR)) return p->badarg();
    int64_t s = SECONDS_PER_DAY * days_since_epoch(t->year, t->month, t->day) + 3600 * t->hour + 60 * t->minute + t->second;
    return make_integer(*p, s);
}

// erts' seconds_to_univ: any 64-bit count of seconds, days counted from 0000-03-01.
Term posixtime_to_universaltime_1(Process* p, const Term* a) {
    if (!is_integer(a[0])) return p->badarg();
    auto v = int_to_int64(a[0]);
    if (!v) return p->badarg();
    int64_t days = *v / SECONDS_PER_DAY, secs = *v % SECONDS_PER_DAY;
    if (secs < 0) {
        --days;
        secs += SECONDS_PER_DAY;
    }
    DateTime t{};
    t.hour = secs / 3600;
    t.minute = secs % 3600 / 60;
    t.second = secs % 60;
    days += 719468;
    int64_t y = (10000 * days + 14780) / 3652425;
    int64_t doy = days - (365 * y + y / 4 - y / 100 + y / 400);
    if (doy < 0) {
        --y;
        doy = days - (365 * y + y / 4 - y / 100 + y / 400);
    }
    int64_t mi = (100 * doy + 52) / 3060;
    t.month = (mi + 2) % 12 + 1;
    t.year = y + (mi + 2) / 12;
    t.day = doy - (mi * 306 + 5) / 10 + 1;
    return date_time_term(p, t);
}

constexpr BifSpec table[] = {
    {"erlang", "date", 0, &date_0},
    {"erlang", "time", 0, &time_0},
    {"erlang", "localtime_to_universaltime", 1, &localtime_to_universaltime_1},
    {"erlang", "localtime_to_universaltime", 2, &localtime_to_universaltime_2},
    {"erlang", "universaltime_to_localtime", 1, &universaltime_to_localtime_1},
    {"erlang", "universaltime_to_posixtime", 1, &universaltime_to_posixtime_1},
    {"erlang", "posixtime_to_universaltime", 1, &posixtime_to_universaltime_1},
};

}  // namespace

std::span<const BifSpec> calendar_bifs() { return table; }

}  // namespace beam
