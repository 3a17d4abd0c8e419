-module(hc_onload_bad).
-on_load(init/0).
-export([f/0]).
init() -> {error, refused_by_on_load}.
f() -> bad_f.
