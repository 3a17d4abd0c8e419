%% N-body: the Sun and the four giant planets integrated with a fixed time step (symplectic
%% Euler), bodies as tuples of floats in a list. Float arithmetic, math:sqrt, tuple building.
%% The checksum is the energy before and after, as integers (round(E * 1e9)), so the line
%% does not depend on float formatting.
-module(nbody).
-export([main/0, quick/0]).

-define(PI, 3.141592653589793).
-define(SOLAR_MASS, (4 * ?PI * ?PI)).
-define(DAYS_PER_YEAR, 365.24).

%% {X, Y, Z, Vx, Vy, Vz, Mass}: positions in AU, velocities in AU/year, masses in solar masses x 4pi^2.
planets() ->
    D = ?DAYS_PER_YEAR,
    [{0.0, 0.0, 0.0, 0.0, 0.0, 0.0, ?SOLAR_MASS},
     {4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
      1.66007664274403694e-03 * D, 7.69901118419740425e-03 * D, -6.90460016972063023e-05 * D,
      9.54791938424326609e-04 * ?SOLAR_MASS},
     {8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
      -2.76742510726862411e-03 * D, 4.99852801234917238e-03 * D, 2.30417297573763929e-05 * D,
      2.85885980666130812e-04 * ?SOLAR_MASS},
     {1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
      2.96460137564761618e-03 * D, 2.37847173959480950e-03 * D, -2.96589568540237556e-05 * D,
      4.36624404335156298e-05 * ?SOLAR_MASS},
     {1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
      2.68067772490389322e-03 * D, 1.62824170038242295e-03 * D, -9.51592254519715870e-05 * D,
      5.15138902046611451e-05 * ?SOLAR_MASS}].

%% Gives the Sun the momentum that makes the system's total zero.
offset_momentum([{X, Y, Z, _, _, _, M} | Planets] = All) ->
    {Px, Py, Pz} = lists:foldl(fun({_, _, _, Vx, Vy, Vz, Mi}, {A, B, C}) ->
                                       {A + Vx * Mi, B + Vy * Mi, C + Vz * Mi}
                               end, {0.0, 0.0, 0.0}, All),
    [{X, Y, Z, -Px / ?SOLAR_MASS, -Py / ?SOLAR_MASS, -Pz / ?SOLAR_MASS, M} | Planets].

energy([]) -> 0.0;
energy([{X, Y, Z, Vx, Vy, Vz, M} | Rest]) ->
    Kinetic = 0.5 * M * (Vx * Vx + Vy * Vy + Vz * Vz),
    Potential = lists:foldl(fun({X2, Y2, Z2, _, _, _, M2}, Acc) ->
                                    Dx = X - X2, Dy = Y - Y2, Dz = Z - Z2,
                                    Acc + M * M2 / math:sqrt(Dx * Dx + Dy * Dy + Dz * Dz)
                            end, 0.0, Rest),
    Kinetic - Potential + energy(Rest).

advance(0, Bodies, _) -> Bodies;
advance(N, Bodies, Dt) ->
    advance(N - 1, [move(B, Dt) || B <- kick(Bodies, Dt)], Dt).

%% Velocity changes of every pair: each body against those after it in the list.
kick([], _) -> [];
kick([B | Rest], Dt) ->
    {B1, Rest1} = pairs(B, Rest, Dt, []),
    [B1 | kick(Rest1, Dt)].

pairs(B, [], _, Acc) -> {B, lists:reverse(Acc)};
pairs({X, Y, Z, Vx, Vy, Vz, M}, [{X2, Y2, Z2, Vx2, Vy2, Vz2, M2} | Rest], Dt, Acc) ->
    Dx = X - X2, Dy = Y - Y2, Dz = Z - Z2,
    D2 = Dx * Dx + Dy * Dy + Dz * Dz,
    Mag = Dt / (D2 * math:sqrt(D2)),
    A = M2 * Mag, B = M * Mag,
    pairs({X, Y, Z, Vx - Dx * A, Vy - Dy * A, Vz - Dz * A, M}, Rest, Dt,
          [{X2, Y2, Z2, Vx2 + Dx * B, Vy2 + Dy * B, Vz2 + Dz * B, M2} | Acc]).

move({X, Y, Z, Vx, Vy, Vz, M}, Dt) -> {X + Dt * Vx, Y + Dt * Vy, Z + Dt * Vz, Vx, Vy, Vz, M}.

run(Steps) ->
    Bodies = offset_momentum(planets()),
    E0 = energy(Bodies),
    E1 = energy(advance(Steps, Bodies, 0.01)),
    erlang:display({nbody, Steps, round(E0 * 1.0e9), round(E1 * 1.0e9)}).

main() -> run(600000).
quick() -> run(20000).
