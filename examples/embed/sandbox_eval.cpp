// A host program that evaluates untrusted Erlang expressions in a restricted namespace: no
// files, ports, OS commands, network, code loading or halt; at most 50 processes of at most
// 1,000,000 words each. Each expression is parsed and evaluated by OTP's erl_scan, erl_parse
// and erl_eval inside that namespace, so whatever the text calls is checked there.
#include <beamvm/vm.hpp>

#include <cstdio>
#include <string>

namespace {

// Scans, parses and evaluates `text` in `ns`; the value, or what the evaluation raised.
std::string evaluate(beamvm::VM& vm, const beamvm::Namespace& ns, const std::string& text) {
    beamvm::CallOptions in_sandbox{.ns = ns, .timeout = std::chrono::seconds(5)};
    try {
        beamvm::Value scanned = vm.call("erl_scan", "string", {beamvm::Value::string(text)}, in_sandbox);
        if (!scanned[0].is_atom("ok")) return "scan error: " + scanned.to_string();
        beamvm::Value parsed = vm.call("erl_parse", "parse_exprs", {scanned[1]}, in_sandbox);
        if (!parsed[0].is_atom("ok")) return "parse error: " + parsed.to_string();
        beamvm::Value r = vm.call("erl_eval", "exprs", {parsed[1], beamvm::Value::nil()}, in_sandbox);
        return "value: " + r[1].to_string();
    } catch (const beamvm::Exception& e) {
        return "raised " + e.kind().to_string() + ":" + e.reason().to_string();
    } catch (const beamvm::Timeout&) {
        return "stopped: took longer than 5 s";
    }
}

}  // namespace

int main(int argc, char** argv) {
    beamvm::VM vm({.schedulers = 2});
    beamvm::Namespace sandbox = vm.new_namespace(
        "untrusted", {.deny = {"file", "port", "network", "os_cmd", "code_load", "halt"},
                      .max_processes = 50,
                      .max_heap_words = 1'000'000});
    const char* examples[] = {
        "lists:sum([X * X || X <- lists:seq(1, 10)]).",
        "Pid = spawn(fun() -> receive {From, X} -> From ! X * 2 end end), Pid ! {self(), 21}, receive R -> R end.",
        "file:read_file(\"/etc/passwd\").",
        "os:cmd(\"id\").",
        "open_port({spawn, \"sh\"}, []).",
        "gen_tcp:listen(0, []).",
        "erlang:halt(1).",
        "[spawn(fun() -> receive after infinity -> ok end end) || _ <- lists:seq(1, 100)].",
        "receive after infinity -> ok end.",
    };
    for (int i = 1; i < argc; ++i) std::printf("%s\n  %s\n", argv[i], evaluate(vm, sandbox, argv[i]).c_str());
    if (argc > 1) return 0;
    for (const char* text : examples) std::printf("%s\n  %s\n", text, evaluate(vm, sandbox, text).c_str());
    return 0;
}
