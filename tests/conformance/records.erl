%% Records: construction, defaults, access, update, is_record and badrecord.
-module(records).
-export([main/0, id/1]).

-record(point, {x = 0, y = 0}).
-record(person, {name, age = 0, tags = [] :: list()}).
-record(empty, {}).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

older(#person{age = A} = P) -> P#person{age = A + 1}.

kind(#point{}) -> point;
kind(#person{}) -> person;
kind(_) -> other.

main() ->
    P = id(#point{x = 3}),
    Bob = id(#person{name = "Bob", age = 40}),
    t(construct, fun() -> P end),
    t(defaults, fun() -> #person{} end),
    t(access, fun() -> {P#point.x, P#point.y, Bob#person.name} end),
    t(update, fun() -> P#point{y = 9} end),
    t(update_many, fun() -> Bob#person{age = 41, tags = [x]} end),
    t(function_update, fun() -> older(older(Bob)) end),
    t(field_index, fun() -> {#point.x, #point.y, #person.tags} end),
    t(record_info, fun() -> {record_info(fields, person), record_info(size, point)} end),
    t(is_record, fun() -> {is_record(P, point), is_record(P, person), is_record(Bob, person, 4),
                            is_record(id({point, 1}), point)} end),
    t(is_record_guard, fun() -> [kind(X) || X <- id([P, Bob, {point}, {other, 1, 2}])] end),
    t(empty, fun() -> #empty{} end),
    t(match, fun() -> #point{x = X, y = Y} = P, X + Y end),
    t(badrecord_access, fun() -> (id({other, 1, 2}))#point.x end),
    t(badrecord_update, fun() -> (id(Bob))#point{x = 1} end),
    t(badrecord_not_tuple, fun() -> (id(atom))#point.y end),
    t(badmatch_record, fun() -> #point{x = 1} = P end),
    t(nested, fun() -> Outer = {wrap, #point{x = #point{y = 2}}},
                       {wrap, #point{x = #point{y = Z}}} = id(Outer), Z end),
    t(as_tuple, fun() -> {tuple_size(Bob), element(1, Bob), setelement(3, Bob, 1)} end),
    ok.
