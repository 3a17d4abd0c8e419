// beamvm's public term type: an Erlang term as a plain C++ value that the host owns.
//
// A Value never points into the VM. Terms cross between host and VM in the external term
// format (term_to_binary's bytes, version 131): what the host builds is encoded and decoded
// onto the receiving process's heap, and what the VM hands back is encoded there and decoded
// here. So a Value stays valid after the process that made it is gone, after a garbage
// collection, and after the VM itself has shut down.
//
// Pids, ports, references and funs are opaque: the host can compare them, print them, keep
// them and send them back (a pid as a message's destination, a reference inside a reply), but
// not look inside. Everything else is open: integers of any size, floats, atoms, binaries
// and bitstrings, lists (proper or not), tuples and maps.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace beamvm {

class Value {
public:
    enum class Kind : uint8_t {
        Integer,    // any size: as_int64() when it fits, integer_text() always
        Float,
        Atom,
        Binary,     // a whole number of bytes
        Bitstring,  // bytes() plus bit_size() % 8 bits of a last byte
        Nil,        // []
        List,       // elements() then tail() (nil for a proper list)
        Tuple,
        Map,        // entries() in the order the VM gave them (or the host built them)
        Pid,        // opaque, as are the three below
        Port,
        Reference,
        Fun,
    };

    Value();  // []
    // Integers and floats convert implicitly: beamvm::tuple({beamvm::atom("add"), 1, 2.5}).
    Value(int n) : Value(integer(n)) {}
    Value(long n) : Value(integer(n)) {}
    Value(long long n) : Value(integer(n)) {}
    Value(double d) : Value(floating(d)) {}

    // ---- building ----
    static Value integer(int64_t n);
    // An integer of any size written in decimal ("-123456789012345678901234567890").
    static Value integer_from_text(std::string_view decimal);
    static Value floating(double d);
    static Value atom(std::string_view name);  // UTF-8, at most 255 characters
    static Value boolean(bool b);              // the atoms true and false
    static Value binary(std::string_view bytes);
    static Value binary(std::span<const uint8_t> bytes);
    static Value bitstring(std::span<const uint8_t> bytes, uint64_t bit_size);
    static Value nil();
    // An Erlang string: the list of the code points of UTF-8 `text`.
    static Value string(std::string_view text);
    static Value list(std::vector<Value> elements, Value tail = Value());
    static Value tuple(std::vector<Value> elements);
    static Value map(std::vector<std::pair<Value, Value>> entries);

    // ---- looking ----
    Kind kind() const { return kind_; }
    bool is_integer() const { return kind_ == Kind::Integer; }
    bool is_atom() const { return kind_ == Kind::Atom; }
    bool is_atom(std::string_view name) const { return kind_ == Kind::Atom && text_ == name; }
    bool is_binary() const { return kind_ == Kind::Binary; }
    bool is_list() const { return kind_ == Kind::List || kind_ == Kind::Nil; }
    bool is_tuple() const { return kind_ == Kind::Tuple; }
    bool is_map() const { return kind_ == Kind::Map; }
    bool is_pid() const { return kind_ == Kind::Pid; }

    // Each throws std::invalid_argument naming the kinds when the value is of another kind.
    bool fits_int64() const;      // an integer within int64_t
    int64_t as_int64() const;     // integers within int64_t
    std::string integer_text() const;  // any integer, in decimal
    double as_double() const;     // floats
    const std::string& atom_name() const;
    bool as_bool() const;         // the atoms true and false
    // Binaries and bitstrings: their bytes (a bitstring's last byte holds its extra bits).
    std::string_view bytes() const;
    uint64_t bit_size() const;
    // Tuples and lists: the elements (a list's before its tail); maps: entries().
    const std::vector<Value>& elements() const;
    const Value& operator[](size_t i) const;  // elements().at(i)
    size_t size() const;                      // elements().size(), or the map's size
    const Value& tail() const;                // lists
    bool is_proper_list() const { return kind_ == Kind::Nil || (kind_ == Kind::List && tail().kind_ == Kind::Nil); }
    const std::vector<std::pair<Value, Value>>& entries() const;
    // A map's value for `key`, or nullptr.
    const Value* find(const Value& key) const;
    // A proper list of code points as UTF-8 text (an Erlang string), or a binary's bytes.
    std::string as_string() const;

    // The value in Erlang's syntax, close to erl's ~p on one line: printable lists as
    // strings, printable binaries as <<"...">>. Pids, ports, references and funs print as erl
    // prints local ones (<0.85.0>, #Ref<0.1.2.3>), whatever their node.
    std::string to_string() const;

    // Equal as Erlang's =:= (1 and 1.0 differ; maps compare by their entries as a set).
    friend bool operator==(const Value& a, const Value& b);

    // The external term format, with the version byte 131, and back. from_external throws
    // std::invalid_argument on malformed input; compressed terms are not accepted.
    std::string to_external() const;
    static Value from_external(std::string_view bytes);

private:
    Kind kind_ = Kind::Nil;
    int64_t int_ = 0;  // Integer (small); Bitstring: its bit size
    double float_ = 0;
    // Atom: the name. Binary/Bitstring: the bytes. Integer too big for int64: the external
    // format's magnitude, sign byte first. Pid/Port/Reference/Fun: the external encoding.
    std::string text_;
    bool big_ = false;  // Integer held in text_
    std::shared_ptr<std::vector<Value>> items_;  // List (before the tail), Tuple
    std::shared_ptr<Value> tail_;                // List
    std::shared_ptr<std::vector<std::pair<Value, Value>>> entries_;

    friend struct ValueAccess;  // the external format's reader and writer (embed/)
};

// Shorthands for building: beamvm::tuple({beamvm::atom("ok"), 42}).
inline Value atom(std::string_view name) { return Value::atom(name); }
inline Value tuple(std::vector<Value> elements) { return Value::tuple(std::move(elements)); }
inline Value list(std::vector<Value> elements) { return Value::list(std::move(elements)); }
inline Value integer(int64_t n) { return Value::integer(n); }
inline Value binary(std::string_view bytes) { return Value::binary(bytes); }

}  // namespace beamvm
