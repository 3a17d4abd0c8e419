// erl_ddll's natives. beamvm's own drivers are built in (io/drivers.hpp); C drivers load
// through io/c_drivers.hpp, which serves the small part of the erl_driver API that simple
// drivers use: try_load/3 opens one ({ok, loaded}, {ok, already_loaded}, or {open_error, Code}
// whose text format_error_int/1 gives), a loaded driver stays loaded (try_unload/2: permanent),
// monitors never fire. Arguments are checked as erl checks them, so bad ones raise badarg.
#include <mutex>
#include <string>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "io/c_drivers.hpp"
#include "vm/atom_table.hpp"
#include "vm/term_refs.hpp"

namespace beam {

namespace {

// try_load/3's error codes: FIRST_OPEN_ERROR - i for the i-th text in open_errors(), which
// format_error_int/1 gives back (dlerror's text, or what was wrong with the driver).
constexpr SWord FIRST_OPEN_ERROR = -100;
std::mutex open_errors_mutex;
std::vector<std::string>& open_errors() {
    static auto* e = new std::vector<std::string>;
    return *e;
}

std::string name_text(Term t) { return is_atom(t) ? std::string(atom_name(t)) : *char_list_to_utf8(t); }

bool is_name(Term t) { return is_atom(t) || char_list_to_utf8(t).has_value(); }

bool is_pending_kind(Term t) { return t == atom("pending_driver") || t == atom("pending"); }

bool load_options_ok(Term opts) {
    std::vector<Term> items;
    if (!list_elements(opts, items)) return false;
    for (Term o : items) {
        if (!is_tuple(o) || tuple_arity(o) != 2) return false;
        Term k = tuple_elem(o, 0), v = tuple_elem(o, 1);
        if (k == atom("driver_options")) {
            std::vector<Term> dopts;
            if (!list_elements(v, dopts)) return false;
            for (Term d : dopts)
                if (d != atom("kill_ports")) return false;
        } else if (k == atom("monitor") || k == atom("reload")) {
            if (!is_pending_kind(v)) return false;
        } else {
            return false;
        }
    }
    return true;
}

bool unload_options_ok(Term opts) {
    std::vector<Term> items;
    if (!list_elements(opts, items)) return false;
    for (Term o : items) {
        if (o == atom("kill_ports")) continue;
        if (is_tuple(o) && tuple_arity(o) == 2 && tuple_elem(o, 0) == atom("monitor") &&
            is_pending_kind(tuple_elem(o, 1)))
            continue;
        return false;
    }
    return true;
}

Term try_load_3(Process* p, const Term* a) {
    if (!is_name(a[0]) || !is_name(a[1]) || !load_options_ok(a[2])) return p->badarg();
    bool already = false;
    std::optional<std::string> err = load_c_driver(name_text(a[0]), name_text(a[1]), already);
    if (!err) return make_tuple(*p, {am::ok, atom(already ? "already_loaded" : "loaded")});
    SWord code;
    {
        std::lock_guard lock(open_errors_mutex);
        open_errors().push_back(*err);
        code = FIRST_OPEN_ERROR - SWord(open_errors().size() - 1);
    }
    return make_tuple(*p, {am::error, make_tuple(*p, {atom("open_error"), make_small(code)})});
}

Term try_unload_2(Process* p, const Term* a) {
    if (!is_name(a[0]) || !unload_options_ok(a[1])) return p->badarg();
    for (const std::string& n : loaded_c_drivers())
        if (n == name_text(a[0])) return make_tuple(*p, {am::error, atom("permanent")});
    return make_tuple(*p, {am::error, atom("not_loaded")});
}

Term loaded_drivers_0(Process* p, const Term*) { return make_tuple(*p, {am::ok, NIL}); }

// No driver is loaded, so there is none to ask about.
Term info_2(Process* p, const Term*) { return p->badarg(); }

Term monitor_2(Process* p, const Term* a) {
    Term item = a[1];
    if (a[0] != atom("driver") || !is_tuple(item) || tuple_arity(item) != 2 || !is_name(tuple_elem(item, 0)))
        return p->badarg();
    Term what = tuple_elem(item, 1);
    if (what != atom("loaded") && what != atom("unloaded") && what != atom("unloaded_only")) return p->badarg();
    return make_new_ref(*p);  // the event never comes: no driver loads
}

Term demonitor_1(Process* p, const Term* a) {
    if (!is_ref(a[0])) return p->badarg();
    return am::true_;
}

Term format_error_int_1(Process* p, const Term* a) {
    Term e = a[0];
    const char* text = nullptr;
    if (is_tuple(e) && tuple_arity(e) == 2 && tuple_elem(e, 0) == atom("open_error") && is_small(tuple_elem(e, 1))) {
        SWord i = FIRST_OPEN_ERROR - small_value(tuple_elem(e, 1));
        std::lock_guard lock(open_errors_mutex);
        if (i >= 0 && size_t(i) < open_errors().size()) return make_string(*p, open_errors()[size_t(i)]);
    }
    if (e == atom("not_loaded")) text = "Driver is not loaded";
    else if (e == atom("inconsistent")) text = "Driver name or options are inconsistent with the loaded driver";
    else if (e == atom("linked_in_driver")) text = "Driver is linked in and cannot be unloaded";
    else if (e == atom("permanent")) text = "Driver is permanent and cannot be unloaded";
    else if (e == atom("not_loaded_by_this_process")) text = "Driver was not loaded by this process";
    else if (e == atom("not_pending")) text = "Driver is not pending";
    else if (e == atom("already_loaded")) text = "Driver is already loaded";
    else if (e == atom("unloading")) text = "Driver is being unloaded";
    else text = "Unknown driver error";
    return make_string(*p, text);
}

const BifSpec table[] = {
    {"erl_ddll", "try_load", 3, &try_load_3},
    {"erl_ddll", "try_unload", 2, &try_unload_2},
    {"erl_ddll", "loaded_drivers", 0, &loaded_drivers_0},
    {"erl_ddll", "info", 2, &info_2},
    {"erl_ddll", "monitor", 2, &monitor_2},
    {"erl_ddll", "demonitor", 1, &demonitor_1},
    {"erl_ddll", "format_error_int", 1, &format_error_int_1},
};

}  // namespace

std::span<const BifSpec> erl_ddll_bifs() { return table; }

}  // namespace beam
