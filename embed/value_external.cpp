// beamvm::Value in the external term format (erl_ext_dist): how values cross between the host
// and the VM. The tags are the ones OTP 25's term_to_binary writes, and on reading also the
// older ones it still accepts (ATOM_EXT, STRING_EXT, FLOAT_EXT, PID_EXT, ...).
#include <bit>
#include <cstring>

#include "embed/value_internal.hpp"

namespace beamvm {

namespace {

namespace tag {
constexpr uint8_t VERSION = 131;
constexpr uint8_t NEW_FLOAT = 70, BIT_BINARY = 77, NEW_PID = 88, NEW_PORT = 89, NEWER_REFERENCE = 90;
constexpr uint8_t SMALL_INTEGER = 97, INTEGER = 98, FLOAT = 99, ATOM = 100, REFERENCE = 101, PORT = 102;
constexpr uint8_t PID = 103, SMALL_TUPLE = 104, LARGE_TUPLE = 105, NIL = 106, STRING = 107, LIST = 108;
constexpr uint8_t BINARY = 109, SMALL_BIG = 110, LARGE_BIG = 111, NEW_FUN = 112, EXPORT = 113;
constexpr uint8_t NEW_REFERENCE = 114, SMALL_ATOM = 115, MAP = 116, ATOM_UTF8 = 118, SMALL_ATOM_UTF8 = 119;
constexpr uint8_t V4_PORT = 120;
}  // namespace tag

// Nesting deeper than this is refused rather than risking the host thread's stack.
constexpr int MAX_DEPTH = 20000;

[[noreturn]] void malformed(const char* what) {
    throw std::invalid_argument(std::string("beamvm::Value::from_external: ") + what);
}

void put_u8(std::string& out, unsigned v) { out.push_back(char(uint8_t(v))); }
void put_u16(std::string& out, unsigned v) {
    put_u8(out, v >> 8);
    put_u8(out, v);
}
void put_u32(std::string& out, uint32_t v) {
    put_u16(out, v >> 16);
    put_u16(out, v & 0xFFFF);
}

struct Reader {
    std::string_view in;
    size_t& pos;

    void need(size_t n) const {
        if (in.size() - pos < n) malformed("the term ends early");
    }
    uint8_t u8() {
        need(1);
        return uint8_t(in[pos++]);
    }
    uint32_t u16() {
        uint32_t hi = u8();
        return (hi << 8) | u8();
    }
    uint32_t u32() {
        uint32_t hi = u16();
        return (hi << 16) | u16();
    }
    std::string_view take(size_t n) {
        need(n);
        std::string_view s = in.substr(pos, n);
        pos += n;
        return s;
    }
    // An atom term (any of the four atom tags): its name as UTF-8.
    std::string atom() {
        uint8_t t = u8();
        size_t len = t == tag::ATOM || t == tag::ATOM_UTF8 ? u16() : t == tag::SMALL_ATOM || t == tag::SMALL_ATOM_UTF8 ? u8() : SIZE_MAX;
        if (len == SIZE_MAX) malformed("an atom was expected");
        std::string_view bytes = take(len);
        if (t == tag::ATOM_UTF8 || t == tag::SMALL_ATOM_UTF8) return std::string(bytes);
        std::string utf8;  // latin1
        for (unsigned char c : bytes) {
            if (c < 0x80) {
                utf8.push_back(char(c));
            } else {
                utf8.push_back(char(0xC0 | (c >> 6)));
                utf8.push_back(char(0x80 | (c & 0x3F)));
            }
        }
        return utf8;
    }
};

// Skips one term (the opaque kinds' parts: node atoms, a fun's small integers).
void skip_term(std::string_view in, size_t& pos, int depth) { (void)ValueAccess::read(in, pos, depth); }

}  // namespace

Value ValueAccess::integer_from_magnitude(bool negative, std::string magnitude) {
    while (!magnitude.empty() && magnitude.back() == 0) magnitude.pop_back();
    if (magnitude.size() <= 8) {
        uint64_t m = 0;
        for (size_t i = magnitude.size(); i-- > 0;) m = (m << 8) | uint8_t(magnitude[i]);
        if (!negative && m <= uint64_t(INT64_MAX)) return Value::integer(int64_t(m));
        if (negative && m <= uint64_t(INT64_MAX) + 1) return Value::integer(int64_t(0 - m));
    }
    Value v = Value::integer(0);
    v.big_ = true;
    v.text_ = std::string(1, char(negative ? 1 : 0)) + magnitude;
    return v;
}

Value ValueAccess::opaque(Value::Kind kind, std::string encoding) {
    Value v;
    v.kind_ = kind;
    v.text_ = std::move(encoding);
    return v;
}

std::string ValueAccess::opaque_text(const Value& v) {
    size_t pos = 1;
    Reader r{v.text_, pos};
    uint8_t t = uint8_t(v.text_[0]);
    switch (v.kind_) {
    case Value::Kind::Pid: {
        r.atom();
        uint32_t id = r.u32(), serial = r.u32();
        return "<0." + std::to_string(id) + "." + std::to_string(serial) + ">";
    }
    case Value::Kind::Port: {
        r.atom();
        uint64_t id = t == tag::V4_PORT ? (uint64_t(r.u32()) << 32) | r.u32() : r.u32();
        return "#Port<0." + std::to_string(id) + ">";
    }
    case Value::Kind::Reference: {
        if (t == tag::REFERENCE) {
            r.atom();
            return "#Ref<0." + std::to_string(r.u32()) + ">";
        }
        size_t n = r.u16();
        r.atom();
        if (t == tag::NEWER_REFERENCE) r.u32();
        else r.u8();
        std::vector<uint32_t> ids;
        for (size_t i = 0; i < n; ++i) ids.push_back(r.u32());
        std::string out = "#Ref<0";
        for (size_t i = ids.size(); i-- > 0;) out += "." + std::to_string(ids[i]);
        return out + ">";
    }
    case Value::Kind::Fun: {
        if (t == tag::EXPORT) {
            std::string m = r.atom(), f = r.atom();
            Value a = read(v.text_, pos, 0);
            return "fun " + Value::atom(m).to_string() + ":" + Value::atom(f).to_string() + "/" + a.to_string();
        }
        r.u32();                 // size
        r.u8();                  // arity
        r.take(16);              // uniq
        r.u32();                 // index
        r.u32();                 // number of free variables
        std::string m = r.atom();
        Value old_index = read(v.text_, pos, 0);
        Value old_uniq = read(v.text_, pos, 0);
        return "#Fun<" + Value::atom(m).to_string() + "." + old_index.to_string() + "." + old_uniq.to_string() + ">";
    }
    default:
        return "?";
    }
}

void ValueAccess::write(const Value& v, std::string& out) {
    switch (v.kind_) {
    case Value::Kind::Integer:
        if (!v.big_ && v.int_ >= 0 && v.int_ <= 255) {
            put_u8(out, tag::SMALL_INTEGER);
            put_u8(out, unsigned(v.int_));
        } else if (!v.big_ && v.int_ >= INT32_MIN && v.int_ <= INT32_MAX) {
            put_u8(out, tag::INTEGER);
            put_u32(out, uint32_t(int32_t(v.int_)));
        } else {
            std::string mag;
            bool neg;
            if (v.big_) {
                neg = v.text_[0] != 0;
                mag = v.text_.substr(1);
            } else {
                neg = v.int_ < 0;
                uint64_t m = neg ? 0 - uint64_t(v.int_) : uint64_t(v.int_);
                for (; m; m >>= 8) mag.push_back(char(m & 0xFF));
            }
            if (mag.size() <= 255) {
                put_u8(out, tag::SMALL_BIG);
                put_u8(out, unsigned(mag.size()));
            } else {
                put_u8(out, tag::LARGE_BIG);
                put_u32(out, uint32_t(mag.size()));
            }
            put_u8(out, neg ? 1 : 0);
            out += mag;
        }
        return;
    case Value::Kind::Float: {
        put_u8(out, tag::NEW_FLOAT);
        uint64_t bits = std::bit_cast<uint64_t>(v.float_);
        put_u32(out, uint32_t(bits >> 32));
        put_u32(out, uint32_t(bits));
        return;
    }
    case Value::Kind::Atom:
        if (v.text_.size() <= 255) {
            put_u8(out, tag::SMALL_ATOM_UTF8);
            put_u8(out, unsigned(v.text_.size()));
        } else {
            put_u8(out, tag::ATOM_UTF8);
            put_u16(out, unsigned(std::min<size_t>(v.text_.size(), 0xFFFF)));
        }
        out += v.text_.substr(0, 0xFFFF);
        return;
    case Value::Kind::Binary:
        put_u8(out, tag::BINARY);
        put_u32(out, uint32_t(v.text_.size()));
        out += v.text_;
        return;
    case Value::Kind::Bitstring:
        put_u8(out, tag::BIT_BINARY);
        put_u32(out, uint32_t(v.text_.size()));
        put_u8(out, unsigned(v.int_ % 8));
        out += v.text_;
        return;
    case Value::Kind::Nil:
        put_u8(out, tag::NIL);
        return;
    case Value::Kind::List:
        put_u8(out, tag::LIST);
        put_u32(out, uint32_t(v.items_->size()));
        for (const Value& e : *v.items_) write(e, out);
        write(*v.tail_, out);
        return;
    case Value::Kind::Tuple:
        if (v.items_->size() <= 255) {
            put_u8(out, tag::SMALL_TUPLE);
            put_u8(out, unsigned(v.items_->size()));
        } else {
            put_u8(out, tag::LARGE_TUPLE);
            put_u32(out, uint32_t(v.items_->size()));
        }
        for (const Value& e : *v.items_) write(e, out);
        return;
    case Value::Kind::Map:
        put_u8(out, tag::MAP);
        put_u32(out, uint32_t(v.entries_->size()));
        for (const auto& [k, val] : *v.entries_) {
            write(k, out);
            write(val, out);
        }
        return;
    default:
        out += v.text_;
        return;
    }
}

Value ValueAccess::read(std::string_view in, size_t& pos, int depth) {
    if (depth > MAX_DEPTH) malformed("nested too deeply");
    Reader r{in, pos};
    size_t start = pos;
    uint8_t t = r.u8();
    auto opaque_from = [&](Value::Kind k) { return opaque(k, std::string(in.substr(start, pos - start))); };
    switch (t) {
    case tag::SMALL_INTEGER:
        return Value::integer(r.u8());
    case tag::INTEGER:
        return Value::integer(int32_t(r.u32()));
    case tag::SMALL_BIG:
    case tag::LARGE_BIG: {
        size_t n = t == tag::SMALL_BIG ? r.u8() : r.u32();
        bool neg = r.u8() != 0;
        return integer_from_magnitude(neg, std::string(r.take(n)));
    }
    case tag::NEW_FLOAT: {
        uint64_t hi = r.u32();
        uint64_t bits = (hi << 32) | r.u32();
        return Value::floating(std::bit_cast<double>(bits));
    }
    case tag::FLOAT: {
        std::string text(r.take(31));
        return Value::floating(std::strtod(text.c_str(), nullptr));
    }
    case tag::ATOM:
    case tag::SMALL_ATOM:
    case tag::ATOM_UTF8:
    case tag::SMALL_ATOM_UTF8:
        pos = start;
        return Value::atom(r.atom());
    case tag::BINARY:
        return Value::binary(r.take(r.u32()));
    case tag::BIT_BINARY: {
        size_t n = r.u32();
        unsigned bits = r.u8();
        if (bits < 1 || bits > 8 || n == 0) malformed("a bitstring's last byte has 1 to 8 bits");
        std::string_view bytes = r.take(n);
        return Value::bitstring(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), n), uint64_t(n - 1) * 8 + bits);
    }
    case tag::NIL:
        return Value::nil();
    case tag::STRING: {
        std::string_view bytes = r.take(r.u16());
        std::vector<Value> items;
        for (unsigned char c : bytes) items.push_back(Value::integer(c));
        return Value::list(std::move(items));
    }
    case tag::LIST: {
        size_t n = r.u32();
        if (n > in.size() - pos) malformed("a list longer than the input");
        std::vector<Value> items;
        items.reserve(n);
        for (size_t i = 0; i < n; ++i) items.push_back(read(in, pos, depth + 1));
        Value tail = read(in, pos, depth + 1);
        return Value::list(std::move(items), std::move(tail));
    }
    case tag::SMALL_TUPLE:
    case tag::LARGE_TUPLE: {
        size_t n = t == tag::SMALL_TUPLE ? r.u8() : r.u32();
        if (n > in.size() - pos) malformed("a tuple larger than the input");
        std::vector<Value> items;
        items.reserve(n);
        for (size_t i = 0; i < n; ++i) items.push_back(read(in, pos, depth + 1));
        return Value::tuple(std::move(items));
    }
    case tag::MAP: {
        size_t n = r.u32();
        if (n > in.size() - pos) malformed("a map larger than the input");
        std::vector<std::pair<Value, Value>> entries;
        entries.reserve(n);
        for (size_t i = 0; i < n; ++i) {
            Value k = read(in, pos, depth + 1);
            Value v = read(in, pos, depth + 1);
            entries.emplace_back(std::move(k), std::move(v));
        }
        Value m;
        m.kind_ = Value::Kind::Map;
        m.entries_ = std::make_shared<std::vector<std::pair<Value, Value>>>(std::move(entries));
        return m;
    }
    case tag::NEW_PID:
    case tag::PID:
        r.atom();
        r.take(t == tag::NEW_PID ? 12 : 9);
        return opaque_from(Value::Kind::Pid);
    case tag::NEW_PORT:
    case tag::PORT:
    case tag::V4_PORT:
        r.atom();
        r.take(t == tag::V4_PORT ? 12 : t == tag::NEW_PORT ? 8 : 5);
        return opaque_from(Value::Kind::Port);
    case tag::NEWER_REFERENCE:
    case tag::NEW_REFERENCE: {
        size_t n = r.u16();
        r.atom();
        r.take((t == tag::NEWER_REFERENCE ? 4 : 1) + 4 * n);
        return opaque_from(Value::Kind::Reference);
    }
    case tag::REFERENCE:
        r.atom();
        r.take(5);
        return opaque_from(Value::Kind::Reference);
    case tag::EXPORT:
        r.atom();
        r.atom();
        skip_term(in, pos, depth + 1);
        return opaque_from(Value::Kind::Fun);
    case tag::NEW_FUN: {
        size_t size = r.u32();
        if (size < 4) malformed("a fun's size is too small");
        pos = start + 1;
        r.take(size);
        return opaque_from(Value::Kind::Fun);
    }
    default:
        malformed(("unknown tag " + std::to_string(t)).c_str());
    }
}

std::string Value::to_external() const {
    std::string out(1, char(tag::VERSION));
    ValueAccess::write(*this, out);
    return out;
}

Value Value::from_external(std::string_view bytes) {
    if (bytes.empty() || uint8_t(bytes[0]) != tag::VERSION) malformed("no version byte 131");
    size_t pos = 1;
    Value v = ValueAccess::read(bytes, pos, 0);
    if (pos != bytes.size()) malformed("bytes after the term");
    return v;
}

}  // namespace beamvm
