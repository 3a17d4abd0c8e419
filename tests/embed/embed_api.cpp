// The embedding API (include/beamvm/): every public function, two VMs in one process, host
// functions with errors, messages both ways, hot loading, and a restricted namespace refusing
// file, port, network and os:cmd access. The Erlang side is tests/embed/data/.
#include <catch2/catch.hpp>

#include <atomic>
#include <fstream>
#include <mutex>
#include <thread>

#include "beamvm/vm.hpp"

using beamvm::atom;
using beamvm::tuple;
using beamvm::Value;
using namespace std::chrono_literals;

namespace {

const std::string DATA = EMBED_DATA_DIR;

std::vector<uint8_t> read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Host functions of the tests: host_math:add/2, fail/1, crash/0, notify/0 and slow/1 (dirty).
std::vector<beamvm::HostFunction> host_math() {
    using Args = std::span<const Value>;
    return {
        {"host_math", "add", 2, [](beamvm::HostCall&, Args a) { return Value::integer(a[0].as_int64() + a[1].as_int64()); }},
        {"host_math", "fail", 1,
         [](beamvm::HostCall&, Args a) -> Value { throw beamvm::HostError(tuple({atom("refused"), a[0]})); }},
        {"host_math", "crash", 0, [](beamvm::HostCall&, Args) -> Value { throw std::runtime_error("out of paper"); }},
        {"host_math", "notify", 0,
         [](beamvm::HostCall& c, Args) {
             c.send(c.self(), tuple({atom("from_host"), c.self()}));
             return atom("ok");
         }},
        {"host_math", "timeslice", 1,
         [](beamvm::HostCall& c, Args a) { return Value::boolean(c.consume_timeslice(int(a[0].as_int64()))); }},
        {"host_math", "slow", 1,
         [](beamvm::HostCall&, Args a) {
             std::this_thread::sleep_for(20ms);
             return Value::integer(a[0].as_int64() * 10);
         },
         true},
    };
}

beamvm::Options options() {
    beamvm::Options o;
    o.schedulers = 2;
    o.code_path = {DATA};
    o.host_functions = host_math();
    return o;
}

}  // namespace

TEST_CASE("Value: building, looking and the external format", "[embed][value]") {
    Value t = tuple({atom("ok"), 42, 2.5, Value::string("héllo"), beamvm::binary("bin"), Value::nil(),
                     Value::list({1, 2}, atom("tail")), Value::map({{atom("k"), 1}, {atom("k"), 2}})});
    CHECK(t.size() == 8);
    CHECK(t[0].is_atom("ok"));
    CHECK(t[1].as_int64() == 42);
    CHECK(t[2].as_double() == 2.5);
    CHECK(t[3].as_string() == "héllo");
    CHECK(t[4].bytes() == "bin");
    CHECK(t[6].tail().is_atom("tail"));
    CHECK(!t[6].is_proper_list());
    CHECK(t[7].size() == 1);
    CHECK(t[7].find(atom("k"))->as_int64() == 2);
    CHECK(Value::from_external(t.to_external()) == t);
    CHECK(t.to_string() == "{ok,42,2.5,\"héllo\",<<\"bin\">>,[],[1,2|tail],#{k => 2}}");

    Value big = Value::integer_from_text("-123456789012345678901234567890");
    CHECK(!big.fits_int64());
    CHECK(big.integer_text() == "-123456789012345678901234567890");
    CHECK(Value::from_external(big.to_external()) == big);
    CHECK_THROWS_AS(big.as_int64(), std::out_of_range);
    CHECK(Value::integer_from_text("9223372036854775807").as_int64() == INT64_MAX);

    uint8_t bits[] = {0xff, 0xc0};
    Value bs = Value::bitstring(bits, 10);
    CHECK(bs.bit_size() == 10);
    CHECK(bs.to_string() == "<<255,3:2>>");
    CHECK(Value::from_external(bs.to_external()) == bs);
    CHECK(Value::boolean(true).as_bool());
    uint8_t raw[] = {0, 255};
    CHECK(Value::binary(std::span<const uint8_t>(raw)).to_string() == "<<0,255>>");
    CHECK(Value::floating(-0.125).to_string() == "-0.125");
    CHECK(Value::floating(1e21).to_string() == "1.0e21");
    Value m = Value::map({{atom("a"), 1}, {beamvm::binary("b"), beamvm::list({})}});
    CHECK(m.entries().size() == 2);
    CHECK(m.entries()[1].first.bytes() == "b");
    CHECK(m.find(atom("zz")) == nullptr);
    CHECK(Value::from_external(m.to_external()) == m);

    CHECK_THROWS_AS(atom("x").as_int64(), std::invalid_argument);
    CHECK_THROWS_AS(Value::from_external(std::string("\x83\x6c\x00\x00\x00\x05", 6)), std::invalid_argument);
    CHECK_THROWS_AS(Value::from_external("not a term"), std::invalid_argument);
}

TEST_CASE("VM: calls, results and exceptions", "[embed][vm]") {
    beamvm::VM vm(options());
    CHECK(vm.call("lists", "seq", {1, 5}) == beamvm::list({1, 2, 3, 4, 5}));
    CHECK(vm.call("embed_test", "add", {Value::integer_from_text("100000000000000000000"), 1}).integer_text() ==
          "100000000000000000001");

    try {
        vm.call("erlang", "atom_to_list", {42});
        FAIL("no exception");
    } catch (const beamvm::Exception& e) {
        CHECK(e.kind().is_atom("error"));
        CHECK(e.reason().is_atom("badarg"));
        REQUIRE(e.stacktrace().is_list());
        CHECK(e.stacktrace()[0][0].is_atom("erlang"));
    }
    try {
        vm.call("erlang", "throw", {atom("ball")});
        FAIL("no exception");
    } catch (const beamvm::Exception& e) {
        CHECK(e.kind().is_atom("throw"));
        CHECK(e.reason().is_atom("ball"));
    }
    try {
        vm.call("embed_test", "crash", {tuple({atom("shutdown"), 1})});
        FAIL("no exception");
    } catch (const beamvm::Exception& e) {
        CHECK(e.kind().is_atom("exit"));
        CHECK(e.reason() == tuple({atom("shutdown"), 1}));
    }
    try {
        vm.call("no_such_module", "f");
        FAIL("no exception");
    } catch (const beamvm::Exception& e) {
        CHECK(e.reason().is_atom("undef"));
    }
    CHECK_THROWS_AS(vm.call("timer", "sleep", {atom("infinity")}, {.timeout = 100ms}), beamvm::Timeout);

    // Opaque terms come back as they went: a pid, a reference and funs.
    Value r = vm.call("embed_test", "make_refs");
    CHECK(r[0].is_pid());
    CHECK(r[1].kind() == Value::Kind::Reference);
    CHECK(r[2].kind() == Value::Kind::Fun);
    CHECK(r[2].to_string() == "fun lists:sum/1");
    CHECK(vm.call("erlang", "apply", {r[2], beamvm::list({beamvm::list({1, 2, 3})})}).as_int64() == 6);
    CHECK(vm.call("erlang", "is_process_alive", {r[0]}) == atom("false"));
    CHECK(vm.call("erlang", "is_reference", {r[1]}) == atom("true"));
}

TEST_CASE("VM: loading modules, malformed files, hot loading", "[embed][load]") {
    beamvm::VM vm(options());
    CHECK(vm.load_module_file(DATA + "/v1/hot.beam") == "hot");
    CHECK(vm.call("hot", "version").as_int64() == 1);

    // A process in version 1 stays there while version 2 becomes current.
    Value old = vm.spawn("hot", "loop");
    auto inbox = vm.open_mailbox();
    CHECK(vm.load_module(read_file(DATA + "/v2/hot.beam")) == "hot");
    CHECK(vm.call("hot", "version").as_int64() == 2);
    vm.send(old, tuple({inbox->pid(), atom("which")}));
    CHECK(inbox->receive(5s).value() == tuple({atom("version"), 1}));
    // A third load purges version 1, and the process still in it is killed.
    vm.load_module_file(DATA + "/v1/hot.beam");
    CHECK(vm.call("hot", "version").as_int64() == 1);
    CHECK(vm.call("erlang", "is_process_alive", {old}) == atom("false"));

    std::vector<uint8_t> junk = read_file(DATA + "/v1/hot.beam");
    junk.resize(junk.size() / 2);
    try {
        vm.load_module(junk);
        FAIL("loaded half a file");
    } catch (const beamvm::Error& e) {
        CHECK(std::string(e.what()).find("cannot load") != std::string::npos);
    }
    CHECK_THROWS_AS(vm.load_module_file(DATA + "/missing.beam"), beamvm::Error);
    CHECK(vm.call("hot", "version").as_int64() == 1);  // still running, still version 1
}

TEST_CASE("VM: messages both ways, spawn, mailboxes", "[embed][messages]") {
    beamvm::VM vm(options());
    auto inbox = vm.open_mailbox();
    CHECK(inbox->pid().is_pid());
    Value echo = vm.spawn("embed_test", "echo_loop");
    for (int i = 0; i < 100; ++i) vm.send(echo, tuple({inbox->pid(), i}));
    for (int i = 0; i < 100; ++i) CHECK(inbox->receive(5s).value() == tuple({atom("echo"), i}));
    CHECK(!inbox->receive(50ms).has_value());

    // A registered name, and messages that Erlang code sends to the host's pid.
    vm.call("erlang", "register", {atom("echo"), echo});
    vm.send(atom("echo"), tuple({inbox->pid(), atom("by_name")}));
    CHECK(inbox->receive(5s).value() == tuple({atom("echo"), atom("by_name")}));
    vm.call("erlang", "send", {inbox->pid(), Value::string("direct")});
    CHECK(inbox->receive(5s).value().as_string() == "direct");
    CHECK_THROWS_AS(vm.send(atom("nobody"), atom("x")), beamvm::Error);

    // A mailbox that goes away takes its process with it.
    Value gone = inbox->pid();
    inbox.reset();
    for (int i = 0; i < 100 && vm.call("erlang", "is_process_alive", {gone}) == atom("true"); ++i)
        std::this_thread::sleep_for(10ms);
    CHECK(vm.call("erlang", "is_process_alive", {gone}) == atom("false"));
}

TEST_CASE("VM: host functions", "[embed][host]") {
    beamvm::VM vm(options());
    CHECK(vm.call("embed_test", "host_add", {40, 2}).as_int64() == 42);
    CHECK(vm.call("host_math", "add", {1, 2}).as_int64() == 3);  // from the host through Erlang's apply
    CHECK(vm.call("embed_test", "host_fail", {7}) == tuple({atom("caught"), tuple({atom("refused"), 7})}));
    Value crash = vm.call("embed_test", "host_crash");
    CHECK(crash[1] == tuple({atom("host_exception"), beamvm::binary("out of paper")}));
    CHECK(vm.call("embed_test", "host_notify") == atom("true"));
    CHECK(vm.call("host_math", "timeslice", {100}) == atom("true"));  // a whole slice is used up
    CHECK(vm.call("host_math", "timeslice", {1}) == atom("false"));
    CHECK(vm.call("embed_test", "host_spin", {8}) == beamvm::list({10, 20, 30, 40, 50, 60, 70, 80}));
    // A bad argument raises in Erlang, as a NIF's badarg does.
    try {
        vm.call("host_math", "add", {atom("one"), 2});
        FAIL("no exception");
    } catch (const beamvm::Exception& e) {
        CHECK(e.reason()[0].is_atom("host_exception"));
        REQUIRE(e.stacktrace().is_list());
        CHECK(e.stacktrace()[0][0].is_atom("host_math"));
    }

    // Host functions are checked when the VM is made.
    beamvm::Options twice = options();
    twice.host_functions.push_back(twice.host_functions[0]);
    CHECK_THROWS_AS(beamvm::VM(twice), beamvm::Error);
    beamvm::Options bif = options();
    bif.host_functions.push_back({"erlang", "self", 0, [](beamvm::HostCall&, std::span<const Value>) { return Value(); }});
    CHECK_THROWS_AS(beamvm::VM(bif), beamvm::Error);
}

TEST_CASE("VM: output hooks", "[embed][output]") {
    std::mutex m;
    std::string out, err;
    beamvm::Options o = options();
    o.on_stdout = [&](std::string_view s) {
        std::lock_guard lock(m);
        out += s;
    };
    o.on_stderr = [&](std::string_view s) {
        std::lock_guard lock(m);
        err += s;
    };
    std::vector<std::pair<std::string, std::string>> logged;
    o.on_log = [&](std::string_view level, std::string_view text) {
        std::lock_guard lock(m);
        logged.emplace_back(level, text);
    };
    beamvm::VM vm(o);
    CHECK(vm.call("embed_test", "print", {beamvm::list({1, 2})}) == atom("ok"));
    // A process that crashes is reported to the log hook, as erl's logger reports it.
    Value pid = vm.spawn("erlang", "error", {atom("on_purpose")});
    for (int i = 0; i < 200; ++i) {
        {
            std::lock_guard lock(m);
            if (!logged.empty()) break;
        }
        std::this_thread::sleep_for(10ms);
    }
    std::lock_guard lock(m);
    CHECK(out == "printed [1,2]\n[1,2]\r\n");
    CHECK(err == "to stderr\n");
    REQUIRE(logged.size() == 1);
    CHECK(logged[0].first == "error");
    CHECK(logged[0].second.find("Error in process " + pid.to_string() + " with exit value:\n{on_purpose,") != std::string::npos);
}

TEST_CASE("Two VMs in one process", "[embed][two]") {
    beamvm::VM a(options()), b(options());
    a.load_module_file(DATA + "/v1/hot.beam");
    b.load_module_file(DATA + "/v2/hot.beam");
    std::atomic<int> wrong{0};
    auto hammer = [&](beamvm::VM& vm, int64_t expect) {
        for (int i = 0; i < 200; ++i)
            if (vm.call("hot", "version").as_int64() != expect) ++wrong;
    };
    std::thread ta(hammer, std::ref(a), 1), tb(hammer, std::ref(b), 2);
    ta.join();
    tb.join();
    CHECK(wrong == 0);
    // Each has its own registered names and processes.
    a.call("erlang", "register", {atom("only_in_a"), a.spawn("embed_test", "echo_loop")});
    CHECK(a.call("erlang", "whereis", {atom("only_in_a")}).is_pid());
    CHECK(b.call("erlang", "whereis", {atom("only_in_a")}) == atom("undefined"));
    // ... and their own ETS table names: a named table in each, kept by an heir.
    for (beamvm::VM* vm : {&a, &b}) {
        Value heir = vm->spawn("embed_test", "echo_loop");
        Value opts = beamvm::list({atom("named_table"), atom("public"), tuple({atom("heir"), heir, atom("none")})});
        CHECK(vm->call("ets", "new", {atom("same_name"), opts}) == atom("same_name"));
        CHECK(vm->call("ets", "insert", {atom("same_name"), tuple({atom("vm"), vm == &a ? 1 : 2})}) == atom("true"));
    }
    CHECK(a.call("ets", "lookup", {atom("same_name"), atom("vm")}) == beamvm::list({tuple({atom("vm"), 1})}));
    CHECK(b.call("ets", "lookup", {atom("same_name"), atom("vm")}) == beamvm::list({tuple({atom("vm"), 2})}));
    // ... and their own erlang:system_flag/2 settings.
    // (system_flag/2 answers the old value.)
    CHECK(a.call("erlang", "system_flag", {atom("backtrace_depth"), 3}).as_int64() == 8);
    CHECK(a.call("erlang", "system_flag", {atom("backtrace_depth"), 3}).as_int64() == 3);
    CHECK(b.call("erlang", "system_flag", {atom("backtrace_depth"), 8}).as_int64() == 8);
    b.shutdown();
    CHECK_THROWS_AS(b.call("hot", "version"), beamvm::Error);
    CHECK(a.call("hot", "version").as_int64() == 1);
}

TEST_CASE("Restricted namespace: file, port, network and os:cmd refused", "[embed][sandbox]") {
    beamvm::VM vm(options());
    beamvm::Namespace ns = vm.new_namespace("guest", {.deny = {"file", "port", "network", "os_cmd", "code_load", "halt"},
                                                      .max_processes = 20});
    CHECK(ns.name() == "guest");
    CHECK(!ns.is_root());
    CHECK(ns.term()[0].is_atom("beamvm_namespace"));
    CHECK(vm.call("beamvm", "namespace_policy", {ns.term()}).to_string().find("os_cmd") != std::string::npos);
    CHECK(beamvm::Namespace().is_root());
    auto refused = [&](const char* m, const char* f, std::vector<Value> args) {
        try {
            Value v = vm.call(m, f, std::move(args), {.ns = ns});
            return "returned " + v.to_string();
        } catch (const beamvm::Exception& e) {
            return e.kind().to_string() + ":" + e.reason().to_string();
        }
    };
    CHECK(refused("file", "read_file", {Value::string("/etc/hostname")}) == "error:{capability_denied,file}");
    CHECK(refused("erlang", "open_port", {tuple({atom("spawn"), Value::string("true")}), Value::nil()}) ==
          "error:{capability_denied,port}");
    CHECK(refused("gen_tcp", "listen", {0, Value::nil()}) == "error:{capability_denied,network}");
    CHECK(refused("os", "cmd", {Value::string("true")}) == "error:{capability_denied,os_cmd}");
    CHECK(refused("erlang", "halt", {1}) == "error:{capability_denied,halt}");
    // Pure code runs; loading from the host into the namespace is the host's right.
    CHECK(vm.call("lists", "reverse", {beamvm::list({1, 2, 3})}, {.ns = ns}) == beamvm::list({3, 2, 1}));
    CHECK(vm.load_module_file(DATA + "/v2/hot.beam", ns) == "hot");
    CHECK(vm.call("hot", "version", {}, {.ns = ns}).as_int64() == 2);
    CHECK(vm.spawn("embed_test", "echo_loop", {}, ns).is_pid());
    // The root is unaffected.
    CHECK(vm.call("file", "read_file", {Value::string("/nonexistent/x")})  == tuple({atom("error"), atom("enoent")}));
    CHECK_THROWS_AS(vm.new_namespace("bad", {.allow = {"teleport"}}), beamvm::Error);
}

TEST_CASE("Halt from Erlang and shutdown", "[embed][halt]") {
    beamvm::VM vm(options());
    CHECK(!vm.halted());
    CHECK_THROWS_AS(vm.call("erlang", "halt", {3}), beamvm::Error);
    CHECK(vm.halted() == 3);
    CHECK_THROWS_AS(vm.call("lists", "seq", {1, 2}), beamvm::Error);
    vm.shutdown();
    vm.shutdown();
}

namespace {
std::string make_from_term(beamvm::VM& vm, const beamvm::Namespace& ns, const Value& bin) {
    try {
        return vm.call("erlang", "binary_to_term", {bin}, {.ns = ns}).to_string();
    } catch (const beamvm::Exception& e) {
        return e.reason().to_string();
    }
}
}  // namespace

TEST_CASE("Restricted namespace: max_atoms", "[embed][sandbox]") {
    beamvm::VM vm(options());
    beamvm::Namespace ns = vm.new_namespace("atoms", {.max_atoms = 5});
    std::string stamp = std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    auto make = [&](const std::string& name) {
        try {
            return vm.call("erlang", "list_to_atom", {Value::string(name)}, {.ns = ns}).to_string();
        } catch (const beamvm::Exception& e) {
            return e.reason().to_string();
        }
    };
    for (int i = 0; i < 5; ++i) CHECK(make("fresh_" + stamp + "_" + std::to_string(i)) == "fresh_" + stamp + "_" + std::to_string(i));
    CHECK(make("fresh_" + stamp + "_5") == "{sandbox_limit,atoms}");
    CHECK(make("fresh_" + stamp + "_0") == "fresh_" + stamp + "_0");  // existing atoms cost nothing
    CHECK(make("ok") == "ok");
    // binary_to_term there creates no atom (as with [safe]).
    Value fresh = beamvm::binary(atom("fresh_" + stamp + "_7").to_external());
    CHECK(make_from_term(vm, ns, fresh) == "badarg");
    CHECK(make_from_term(vm, ns, beamvm::binary(atom("ok").to_external())) == "ok");
    // The root has no such limit.
    CHECK(vm.call("erlang", "list_to_atom", {Value::string("fresh_" + stamp + "_6")}).is_atom());
}

TEST_CASE("Booting OTP: kernel and stdlib running, code_server loading", "[embed][otp]") {
    beamvm::Options o = options();
    o.boot_otp = true;
    o.boot_args = {"-kernel", "logger_level", "error"};
    beamvm::VM vm(o);
    Value apps = vm.call("application", "which_applications");
    std::string text = apps.to_string();
    CHECK(text.find("{kernel,") != std::string::npos);
    CHECK(text.find("{stdlib,") != std::string::npos);
    CHECK(vm.call("application", "get_env", {atom("kernel"), atom("logger_level")}) ==
          tuple({atom("ok"), atom("error")}));
    CHECK(vm.call("erlang", "whereis", {atom("code_server")}).is_pid());
    CHECK(vm.call("embed_test", "host_add", {1, 2}).as_int64() == 3);  // -pa and host functions
    CHECK(vm.load_module_file(DATA + "/v2/hot.beam") == "hot");
    CHECK(vm.call("hot", "version").as_int64() == 2);
    CHECK(vm.call("code", "is_loaded", {atom("hot")})[0].is_atom("file"));
    beamvm::Namespace ns = vm.new_namespace("guest", {.deny = {"file"}});
    try {
        vm.call("file", "read_file", {Value::string("/etc/hostname")}, {.ns = ns});
        FAIL("read a file");
    } catch (const beamvm::Exception& e) {
        CHECK(e.reason() == tuple({atom("capability_denied"), atom("file")}));
    }
    vm.call("init", "stop");
    for (int i = 0; i < 500 && !vm.halted(); ++i) std::this_thread::sleep_for(10ms);
    CHECK(vm.halted() == 0);
}

TEST_CASE("Booting OTP that fails is an Error, and the host goes on", "[embed][otp]") {
    beamvm::Options o = options();
    o.boot_otp = true;
    o.boot_args = {"-config", DATA + "/no_such.config"};
    std::string err;
    o.on_stdout = [&](std::string_view s) { err += s; };  // init's display of why
    try {
        beamvm::VM vm(o);
        FAIL("booted with a missing -config file");
    } catch (const beamvm::Error& e) {
        CHECK(std::string(e.what()).find("booting OTP failed") != std::string::npos);
    }
    beamvm::VM after(options());
    CHECK(after.call("lists", "max", {beamvm::list({3, 9, 4})}).as_int64() == 9);
}
