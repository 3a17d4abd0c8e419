%% The largest integer: OTP's bignums hold at most 2^19-1 64-bit digits, and a shift whose
%% result would be larger fails with system_limit at once (it used to build huge integers).
%% Checked at the exact boundary, both signs, bsl and bsr with negative counts, shift counts
%% that are bignums, and in guards (where the failure makes the guard fail).
-module(int_shift_limit).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% The error reason only: a stack trace would hold the huge operand.
reason(F) -> try F() catch C:R -> {C, R} end.

id(X) -> X.

%% The top bits of a huge integer (shifted back down): shows where its highest bit is
%% without printing millions of digits.
top(N, Shift) -> N bsr Shift.

main() ->
    Max = 64 * (1 bsl 19 - 1),   % bits in the largest magnitude
    t(one_below, fun() -> top(id(1) bsl id(Max - 1), Max - 2) end),
    t(at_limit, fun() -> id(1) bsl id(Max) end),
    t(neg_one_below, fun() -> top(id(-1) bsl id(Max - 1), Max - 2) end),
    t(neg_at_limit, fun() -> id(-1) bsl id(Max) end),
    t(three_fits, fun() -> top(id(3) bsl id(Max - 2), Max - 4) end),
    t(three_carry, fun() -> id(3) bsl id(Max - 1) end),
    t(bsr_negative_count, fun() -> id(1) bsr id(-Max) end),
    t(bsr_negative_fits, fun() -> top(id(1) bsr id(-(Max - 1)), Max - 3) end),
    t(huge_counts, fun() -> [reason(fun() -> id(1) bsl id(16#8000000) end),
                             reason(fun() -> id(-5) bsr id(-16#8000009 - 2) end),
                             reason(fun() -> id(7) bsl id(1 bsl 70) end),
                             id(7) bsr id(1 bsl 70), id(-7) bsr id(1 bsl 70), id(0) bsl id(1 bsl 70)] end),
    t(bignum_operand, fun() -> Big = id(1) bsl id(Max - 100), [top(Big bsl 99, Max - 3), reason(fun() -> Big bsl 100 end)] end),
    t(in_guard, fun() -> X = id(1), N = id(Max),
                         [if X bsl N > 0 -> yes; true -> guard_failed end,
                          if X bsl (N - 1) > 0 -> yes; true -> guard_failed end] end),
    ok.
