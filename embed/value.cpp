// beamvm::Value: building, looking, comparing and printing (the external format is in
// embed/value_external.cpp).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

#include "beamvm/value.hpp"
#include "bifs/bif_util.hpp"
#include "embed/value_internal.hpp"

namespace beamvm {

namespace {

using beam::append_utf8;
using beam::decode_utf8;

[[noreturn]] void wrong_kind(const Value& v, const char* wanted) {
    throw std::invalid_argument(std::string("beamvm::Value: not ") + wanted + ": " + v.to_string());
}

// The magnitude bytes of a big integer (little-endian) in decimal.
std::string magnitude_text(std::string_view le) {
    std::vector<uint8_t> digits(le.begin(), le.end());  // little-endian base 256
    std::string out;
    while (!digits.empty()) {
        unsigned rem = 0;
        for (size_t i = digits.size(); i-- > 0;) {
            unsigned cur = rem * 256 + digits[i];
            digits[i] = uint8_t(cur / 10);
            rem = cur % 10;
        }
        out.push_back(char('0' + rem));
        while (!digits.empty() && digits.back() == 0) digits.pop_back();
    }
    if (out.empty()) out = "0";
    std::reverse(out.begin(), out.end());
    return out;
}

bool atom_needs_quotes(const std::string& a) {
    if (a.empty() || !(a[0] >= 'a' && a[0] <= 'z')) return true;
    for (unsigned char c : a)
        if (!(std::isalnum(c) || c == '_' || c == '@')) return true;
    static const char* reserved[] = {"after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr",
                                     "bxor", "case", "catch", "cond", "div", "end", "fun", "if", "let", "not",
                                     "of", "or", "orelse", "receive", "rem", "try", "when", "xor", "maybe", "else"};
    for (const char* r : reserved)
        if (a == r) return true;
    return false;
}

void print_quoted(std::string& out, std::string_view text, char quote) {
    out.push_back(quote);
    for (unsigned char c : text) {
        if (c == char(quote) || c == '\\') {
            out.push_back('\\');
            out.push_back(char(c));
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else {
            out.push_back(char(c));
        }
    }
    out.push_back(quote);
}

bool printable_char(int64_t c) { return (c >= 32 && c <= 126) || (c >= 160 && c <= 255) || c == '\n' || c == '\t'; }

void print_float(std::string& out, double d) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    std::string s(buf, r.ptr);
    size_t e = s.find('e');
    std::string mant = e == std::string::npos ? s : s.substr(0, e);
    std::string exp = e == std::string::npos ? "" : s.substr(e + 1);
    if (mant.find('.') == std::string::npos && mant.find("inf") == std::string::npos && mant.find("nan") == std::string::npos)
        mant += ".0";
    if (!exp.empty()) {
        if (exp[0] == '+') exp.erase(0, 1);
        bool neg = !exp.empty() && exp[0] == '-';
        if (neg) exp.erase(0, 1);
        while (exp.size() > 1 && exp[0] == '0') exp.erase(0, 1);
        mant += "e" + std::string(neg ? "-" : "") + exp;
    }
    out += mant;
}

}  // namespace

// ---- building ----

Value::Value() = default;

Value Value::integer(int64_t n) {
    Value v;
    v.kind_ = Kind::Integer;
    v.int_ = n;
    return v;
}

Value Value::integer_from_text(std::string_view decimal) {
    std::string_view digits = decimal;
    bool neg = false;
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
        neg = digits[0] == '-';
        digits.remove_prefix(1);
    }
    if (digits.empty()) throw std::invalid_argument("beamvm::Value::integer_from_text: no digits");
    std::vector<uint8_t> mag;  // little-endian base 256
    for (char c : digits) {
        if (c < '0' || c > '9') throw std::invalid_argument("beamvm::Value::integer_from_text: not a decimal integer");
        unsigned carry = unsigned(c - '0');
        for (uint8_t& b : mag) {
            unsigned cur = b * 10u + carry;
            b = uint8_t(cur & 0xFF);
            carry = cur >> 8;
        }
        while (carry) {
            mag.push_back(uint8_t(carry & 0xFF));
            carry >>= 8;
        }
    }
    while (!mag.empty() && mag.back() == 0) mag.pop_back();
    return ValueAccess::integer_from_magnitude(neg, std::string(mag.begin(), mag.end()));
}

Value Value::floating(double d) {
    Value v;
    v.kind_ = Kind::Float;
    v.float_ = d;
    return v;
}

Value Value::atom(std::string_view name) {
    Value v;
    v.kind_ = Kind::Atom;
    v.text_ = name;
    return v;
}

Value Value::boolean(bool b) { return atom(b ? "true" : "false"); }

Value Value::binary(std::string_view bytes) {
    Value v;
    v.kind_ = Kind::Binary;
    v.text_ = bytes;
    return v;
}

Value Value::binary(std::span<const uint8_t> bytes) {
    return binary(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Value Value::bitstring(std::span<const uint8_t> bytes, uint64_t bit_size) {
    if (bit_size > uint64_t(bytes.size()) * 8 || bit_size + 8 <= uint64_t(bytes.size()) * 8)
        throw std::invalid_argument("beamvm::Value::bitstring: bit size does not match the bytes");
    Value v = binary(bytes);
    if (bit_size % 8 != 0) {
        v.kind_ = Kind::Bitstring;
        v.int_ = int64_t(bit_size);
        unsigned extra = unsigned(bit_size % 8);
        v.text_.back() = char(uint8_t(v.text_.back()) & uint8_t(0xFF << (8 - extra)));
    }
    return v;
}

Value Value::nil() { return Value(); }

Value Value::string(std::string_view text) {
    std::vector<uint32_t> cps;
    if (!decode_utf8(text, cps)) throw std::invalid_argument("beamvm::Value::string: not UTF-8");
    std::vector<Value> items;
    items.reserve(cps.size());
    for (uint32_t c : cps) items.push_back(integer(c));
    return list(std::move(items));
}

Value Value::list(std::vector<Value> elements, Value tail) {
    if (elements.empty()) return tail;
    Value v;
    v.kind_ = Kind::List;
    if (tail.kind_ == Kind::List) {  // [a | [b, c | t]] is [a, b, c | t]
        elements.insert(elements.end(), tail.items_->begin(), tail.items_->end());
        Value t = *tail.tail_;
        tail = std::move(t);
    }
    v.items_ = std::make_shared<std::vector<Value>>(std::move(elements));
    v.tail_ = std::make_shared<Value>(std::move(tail));
    return v;
}

Value Value::tuple(std::vector<Value> elements) {
    Value v;
    v.kind_ = Kind::Tuple;
    v.items_ = std::make_shared<std::vector<Value>>(std::move(elements));
    return v;
}

Value Value::map(std::vector<std::pair<Value, Value>> entries) {
    // A key given twice keeps its last value, as #{k => 1, k => 2} does.
    std::vector<std::pair<Value, Value>> unique;
    for (auto& e : entries) {
        auto it = std::find_if(unique.begin(), unique.end(), [&](auto& u) { return u.first == e.first; });
        if (it != unique.end()) it->second = std::move(e.second);
        else unique.push_back(std::move(e));
    }
    Value v;
    v.kind_ = Kind::Map;
    v.entries_ = std::make_shared<std::vector<std::pair<Value, Value>>>(std::move(unique));
    return v;
}

// ---- looking ----

bool Value::fits_int64() const { return kind_ == Kind::Integer && !big_; }

int64_t Value::as_int64() const {
    if (kind_ != Kind::Integer) wrong_kind(*this, "an integer");
    if (big_) throw std::out_of_range("beamvm::Value: integer does not fit in int64_t: " + integer_text());
    return int_;
}

std::string Value::integer_text() const {
    if (kind_ != Kind::Integer) wrong_kind(*this, "an integer");
    if (!big_) return std::to_string(int_);
    return (text_[0] ? "-" : "") + magnitude_text(std::string_view(text_).substr(1));
}

double Value::as_double() const {
    if (kind_ != Kind::Float) wrong_kind(*this, "a float");
    return float_;
}

const std::string& Value::atom_name() const {
    if (kind_ != Kind::Atom) wrong_kind(*this, "an atom");
    return text_;
}

bool Value::as_bool() const {
    if (is_atom("true")) return true;
    if (is_atom("false")) return false;
    wrong_kind(*this, "a boolean");
}

std::string_view Value::bytes() const {
    if (kind_ != Kind::Binary && kind_ != Kind::Bitstring) wrong_kind(*this, "a binary");
    return text_;
}

uint64_t Value::bit_size() const {
    if (kind_ == Kind::Binary) return uint64_t(text_.size()) * 8;
    if (kind_ == Kind::Bitstring) return uint64_t(int_);
    wrong_kind(*this, "a bitstring");
}

const std::vector<Value>& Value::elements() const {
    static const std::vector<Value> none;
    if (kind_ == Kind::Nil) return none;
    if (kind_ != Kind::List && kind_ != Kind::Tuple) wrong_kind(*this, "a list or tuple");
    return *items_;
}

const Value& Value::operator[](size_t i) const {
    const auto& e = elements();
    if (i >= e.size()) throw std::out_of_range("beamvm::Value: element " + std::to_string(i) + " of " + to_string());
    return e[i];
}

size_t Value::size() const { return kind_ == Kind::Map ? entries_->size() : elements().size(); }

const Value& Value::tail() const {
    static const Value nil_value;
    if (kind_ == Kind::Nil) return nil_value;
    if (kind_ != Kind::List) wrong_kind(*this, "a list");
    return *tail_;
}

const std::vector<std::pair<Value, Value>>& Value::entries() const {
    if (kind_ != Kind::Map) wrong_kind(*this, "a map");
    return *entries_;
}

const Value* Value::find(const Value& key) const {
    for (const auto& [k, v] : entries())
        if (k == key) return &v;
    return nullptr;
}

std::string Value::as_string() const {
    if (kind_ == Kind::Binary) return text_;
    if (!is_proper_list()) wrong_kind(*this, "a string");
    std::string out;
    for (const Value& c : elements()) {
        if (!c.fits_int64() || c.int_ < 0 || c.int_ > 0x10FFFF) wrong_kind(*this, "a string");
        append_utf8(out, uint32_t(c.int_));
    }
    return out;
}

// ---- comparing ----

bool operator==(const Value& a, const Value& b) {
    if (a.kind_ != b.kind_) return false;
    switch (a.kind_) {
    case Value::Kind::Integer:
        return a.big_ == b.big_ && (a.big_ ? a.text_ == b.text_ : a.int_ == b.int_);
    case Value::Kind::Float:
        return a.float_ == b.float_;
    case Value::Kind::Nil:
        return true;
    case Value::Kind::Bitstring:
        return a.int_ == b.int_ && a.text_ == b.text_;
    case Value::Kind::List:
        return *a.items_ == *b.items_ && *a.tail_ == *b.tail_;
    case Value::Kind::Tuple:
        return *a.items_ == *b.items_;
    case Value::Kind::Map:
        if (a.entries_->size() != b.entries_->size()) return false;
        for (const auto& [k, v] : *a.entries_) {
            const Value* other = b.find(k);
            if (!other || !(*other == v)) return false;
        }
        return true;
    default:  // atoms, binaries, and the opaque kinds by their encoding
        return a.text_ == b.text_;
    }
}

// ---- printing ----

std::string Value::to_string() const {
    std::string out;
    switch (kind_) {
    case Kind::Integer:
        return integer_text();
    case Kind::Float:
        print_float(out, float_);
        return out;
    case Kind::Atom:
        if (atom_needs_quotes(text_)) print_quoted(out, text_, '\'');
        else out = text_;
        return out;
    case Kind::Binary:
    case Kind::Bitstring: {
        bool printable = kind_ == Kind::Binary && !text_.empty() && std::all_of(text_.begin(), text_.end(), [](char c) {
                             return printable_char(uint8_t(c)) && uint8_t(c) < 128;
                         });
        out = "<<";
        if (printable) {
            print_quoted(out, text_, '"');
        } else {
            size_t whole = kind_ == Kind::Binary ? text_.size() : size_t(int_ / 8);
            for (size_t i = 0; i < whole; ++i) out += (i ? "," : "") + std::to_string(uint8_t(text_[i]));
            if (kind_ == Kind::Bitstring) {
                unsigned extra = unsigned(int_ % 8);
                out += (whole ? "," : "") + std::to_string(uint8_t(text_.back()) >> (8 - extra)) + ":" +
                       std::to_string(extra);
            }
        }
        return out + ">>";
    }
    case Kind::Nil:
        return "[]";
    case Kind::List: {
        bool text = is_proper_list() && std::all_of(items_->begin(), items_->end(), [](const Value& c) {
            return c.fits_int64() && printable_char(c.int_);
        });
        if (text) {
            std::string chars;  // UTF-8, as the host prints
            for (const Value& c : *items_) append_utf8(chars, uint32_t(c.int_));
            print_quoted(out, chars, '"');
            return out;
        }
        out = "[";
        for (size_t i = 0; i < items_->size(); ++i) out += (i ? "," : "") + (*items_)[i].to_string();
        if (tail_->kind_ != Kind::Nil) out += "|" + tail_->to_string();
        return out + "]";
    }
    case Kind::Tuple:
        out = "{";
        for (size_t i = 0; i < items_->size(); ++i) out += (i ? "," : "") + (*items_)[i].to_string();
        return out + "}";
    case Kind::Map:
        out = "#{";
        for (size_t i = 0; i < entries_->size(); ++i)
            out += (i ? "," : "") + (*entries_)[i].first.to_string() + " => " + (*entries_)[i].second.to_string();
        return out + "}";
    default:
        return ValueAccess::opaque_text(*this);
    }
}

}  // namespace beamvm
