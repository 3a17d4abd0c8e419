%% A module with a NIF library, in three versions (-DVSN=1..3, compiled into hot_v1..3 like
%% hc_mod): tests/conformance/nif_load.erl loads successive versions and binds
%% tests/nif/nif_upgrade.c to each, for the load, upgrade and unload callbacks.
-module(nif_upgrade).
-export([version/0, init/2, generation/0, loader/2]).

version() -> ?VSN.

%% load_nif binds to the module version whose code calls it.
init(Lib, Info) -> erlang:load_nif(Lib, Info).

generation() -> erlang:nif_error(not_loaded).

%% A fun of this version: once a newer version is loaded, it calls load_nif from old code.
loader(Lib, Info) -> fun() -> erlang:load_nif(Lib, Info) end.
