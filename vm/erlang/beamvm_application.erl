%% Stand-ins for OTP's application environment (bifs/standins.cpp), until beamvm boots OTP's
%% kernel: without an application controller no application is loaded, so every key is
%% unset, as OTP's application:get_env answers for an application that is not loaded.
%% (crypto's on_load asks for its fips_mode this way.)
-module(beamvm_application).
-export([get_env/2, get_env/3]).

get_env(App, Key) when is_atom(App) ->
    _ = Key,
    undefined.

get_env(App, Key, Default) when is_atom(App) ->
    _ = Key,
    Default.
