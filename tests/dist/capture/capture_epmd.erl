%% An epmd module (erl -epmd_module capture_epmd) that sends connections to one node through the
%% recording proxy: address_please for the node named in CAPTURE_TARGET answers 127.0.0.1 and
%% the port in CAPTURE_PROXY_PORT; everything else is erl_epmd's.
-module(capture_epmd).
-export([start_link/0, register_node/2, register_node/3, port_please/2, port_please/3,
         listen_port_please/2, address_please/3, names/1]).

start_link() -> erl_epmd:start_link().
register_node(Name, Port) -> erl_epmd:register_node(Name, Port).
register_node(Name, Port, Driver) -> erl_epmd:register_node(Name, Port, Driver).
port_please(Name, Host) -> erl_epmd:port_please(Name, Host).
port_please(Name, Host, Timeout) -> erl_epmd:port_please(Name, Host, Timeout).
listen_port_please(Name, Host) -> erl_epmd:listen_port_please(Name, Host).
names(Host) -> erl_epmd:names(Host).

address_please(Name, Host, Family) ->
    case os:getenv("CAPTURE_TARGET") of
        Name -> {ok, {127, 0, 0, 1}, list_to_integer(os:getenv("CAPTURE_PROXY_PORT")), 6};
        _ -> erl_epmd:address_please(Name, Host, Family)
    end.
