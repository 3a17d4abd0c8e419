// Distribution packet framing: the receive side (headers, atom cache, fragment reassembly) and
// the argument checks of the send side. See wire_frame.hpp for the packet layouts.
#include "dist/wire_frame.hpp"
#include "vm/utf8_chars.hpp"

#include <bitset>
#include <fmt/format.h>

#include "vm/atom_table.hpp"

namespace beam::dist {

namespace {

Error fail(std::string_view why) { return make_error(fmt::format("bad distribution packet: {}", why)); }

uint64_t get_u64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
    return v;
}

// One reference of a header, as the first pass found it.
struct CacheRef {
    uint16_t slot;   // segment * 256 + internal index
    bool fresh;      // NewAtomCacheRef: the text follows
    uint32_t text;   // offset of the atom text in the packet (fresh only)
    uint16_t len;
};

}  // namespace

struct ReceiveAccess {
    // Reads the atom cache part of a 131 68/69 header at `pos` (NumberOfAtomCacheRefs onwards),
    // updates the cache and sets `atoms` to the atoms it references, in order. Returns the
    // offset of the data that follows.
    //
    // Two passes: the first checks every length, slot and atom text without touching the cache
    // or the atom table, so a malformed header creates no atoms (they are never freed); the
    // second interns and stores, in order, so a reference to a slot that an earlier reference of
    // the same header refills sees the new atom, as in erts.
    static Result<size_t> read_cache_refs(std::span<const uint8_t> p, size_t pos, ReceiveState& st,
                                          std::vector<Term>& atoms) {
        if (pos >= p.size()) return fail("truncated header: no NumberOfAtomCacheRefs");
        const size_t n = p[pos++];
        atoms.clear();
        if (n == 0) return pos;
        const size_t flag_bytes = n / 2 + 1;
        if (p.size() - pos < flag_bytes) return fail("truncated header: atom cache flags");
        const uint8_t* flags = &p[pos];
        pos += flag_bytes;
        // The half byte after the n references' flags holds LongAtoms in its lowest bit.
        const bool long_atoms = (flags[n / 2] >> (4 * (n & 1))) & 1;

        std::array<CacheRef, 255> refs;
        std::bitset<wire::ATOM_CACHE_SIZE> refilled;
        for (size_t i = 0; i < n; ++i) {
            const unsigned nib = (flags[i / 2] >> (4 * (i & 1))) & 0xF;
            if (pos >= p.size()) return fail(fmt::format("truncated header: atom cache reference {}", i));
            CacheRef& r = refs[i];
            r.slot = uint16_t((nib & 7) << 8 | p[pos++]);
            r.fresh = nib & 8;
            if (r.fresh) {
                size_t len;
                if (long_atoms) {
                    if (p.size() - pos < 2) return fail(fmt::format("truncated header: length of atom {}", i));
                    len = size_t(p[pos]) << 8 | p[pos + 1];
                    pos += 2;
                } else {
                    if (pos >= p.size()) return fail(fmt::format("truncated header: length of atom {}", i));
                    len = p[pos++];
                }
                if (p.size() - pos < len) return fail(fmt::format("truncated header: text of atom {}", i));
                size_t chars;
                if (!utf8_chars(&p[pos], len, chars)) return fail(fmt::format("atom {} is not valid UTF-8", i));
                if (chars > MAX_ATOM_CHARS) return fail(fmt::format("atom {} is longer than 255 characters", i));
                r.text = uint32_t(pos);
                r.len = uint16_t(len);
                pos += len;
                refilled.set(r.slot);
            } else if (!is_atom(st.cache_[r.slot]) && !refilled.test(r.slot)) {
                return fail(fmt::format("atom cache reference {} is to empty slot {}", i, r.slot));
            }
        }
        atoms.reserve(n);
        for (size_t i = 0; i < n; ++i) {
            const CacheRef& r = refs[i];
            if (r.fresh) {
                std::string_view text(reinterpret_cast<const char*>(&p[r.text]), r.len);
                auto a = AtomTable::instance().intern(text);
                if (!a) return fail("atom table full");
                st.cache_[r.slot] = *a;
            }
            atoms.push_back(st.cache_[r.slot]);
        }
        return pos;
    }

    static PacketKind borrowed(ReceivedMessage& out, std::span<const uint8_t> data, bool versionless) {
        out.versionless = versionless;
        out.reassembled = false;
        out.borrowed = data;
        out.owned.clear();
        return PacketKind::Complete;
    }

    // 131 69 Seq Frag Hdr Data
    static Result<PacketKind> first_fragment(std::span<const uint8_t> p, ReceiveState& st, ReceivedMessage& out) {
        if (p.size() < wire::FRAG_HEADER_BYTES) return fail("truncated fragment header");
        const uint64_t seq = get_u64(&p[2]);
        const uint64_t frag = get_u64(&p[10]);
        if (frag == 0) return fail("first fragment with FragmentId 0");
        if (st.sequences_.count(seq))
            return fail(fmt::format("first fragment of sequence {} while it is in progress", seq));
        std::vector<Term> atoms;
        const size_t pos = BEAM_TRY(read_cache_refs(p, wire::FRAG_HEADER_BYTES, st, atoms));
        std::span<const uint8_t> data = p.subspan(pos);
        // erts decodes the control message from the first fragment alone.
        if (data.empty()) return fail("first fragment without a control message");
        if (frag == 1) {
            out.atoms = std::move(atoms);
            return borrowed(out, data, true);
        }
        const size_t cost = sizeof(ReceiveState::Sequence) + atoms.size() * sizeof(Term) + data.size();
        if (cost > st.max_buffered_ - st.buffered_)
            return fail(fmt::format("more than {} bytes of fragmented messages buffered", st.max_buffered_));
        ReceiveState::Sequence s;
        // The reassembly buffer: the last reassembled message's (its caller is done with it
        // once it parses the next packet), made big enough for every fragment the header
        // announces, within the buffering bound: growing it fragment by fragment copied a
        // 1 MiB message twice more and faulted in fresh pages at each step.
        s.data.swap(out.owned);
        s.data.clear();
        constexpr size_t RESERVE_MAX = size_t(64) << 20;
        size_t want = frag > RESERVE_MAX / data.size() ? RESERVE_MAX : size_t(frag) * data.size();
        s.data.reserve(std::min(want, st.max_buffered_ - st.buffered_));
        s.data.assign(data.begin(), data.end());
        s.atoms = std::move(atoms);
        s.next_fragment = frag - 1;
        s.accounted = cost;
        st.sequences_.emplace(seq, std::move(s));
        st.buffered_ += cost;
        return PacketKind::Incomplete;
    }

    // 131 70 Seq Frag Data
    static Result<PacketKind> next_fragment(std::span<const uint8_t> p, ReceiveState& st, ReceivedMessage& out) {
        if (p.size() < wire::FRAG_HEADER_BYTES) return fail("truncated fragment header");
        const uint64_t seq = get_u64(&p[2]);
        const uint64_t frag = get_u64(&p[10]);
        auto it = st.sequences_.find(seq);
        if (it == st.sequences_.end()) return fail(fmt::format("fragment of unknown sequence {}", seq));
        ReceiveState::Sequence& s = it->second;
        if (frag != s.next_fragment)
            return fail(fmt::format("fragment {} of sequence {} where {} was due", frag, seq, s.next_fragment));
        std::span<const uint8_t> data = p.subspan(wire::FRAG_HEADER_BYTES);
        if (data.size() > st.max_buffered_ - st.buffered_)
            return fail(fmt::format("more than {} bytes of fragmented messages buffered", st.max_buffered_));
        s.data.insert(s.data.end(), data.begin(), data.end());
        s.accounted += data.size();
        st.buffered_ += data.size();
        if (frag > 1) {
            --s.next_fragment;
            return PacketKind::Incomplete;
        }
        out.versionless = true;
        out.reassembled = true;
        out.borrowed = {};
        out.owned = std::move(s.data);
        out.atoms = std::move(s.atoms);
        st.buffered_ -= s.accounted;
        st.sequences_.erase(it);
        return PacketKind::Complete;
    }

    static Result<PacketKind> parse(std::span<const uint8_t> p, ReceiveState& st, ReceivedMessage& out) {
        if (p.empty()) return PacketKind::Tick;
        if (!st.header_mode_) {
            if (p[0] != wire::PASS_THROUGH)
                return fail(fmt::format("byte {} where pass-through (112) was due", p[0]));
            std::span<const uint8_t> data = p.subspan(1);
            if (data.empty() || data[0] != wire::VERSION) return fail("pass-through control message without 131");
            out.atoms.clear();
            return borrowed(out, data, false);
        }
        if (p.size() < 2 || p[0] != wire::VERSION)
            return fail(fmt::format("byte {} where a distribution header (131) was due", p[0]));
        switch (p[1]) {
        case wire::DIST_HEADER: {
            const size_t pos = BEAM_TRY(read_cache_refs(p, 2, st, out.atoms));
            if (pos == p.size()) return fail("header without a control message");
            return borrowed(out, p.subspan(pos), true);
        }
        case wire::DIST_FRAG_HEADER:
            if (!st.fragments_) return fail("fragment header, but FRAGMENTS was not agreed");
            return first_fragment(p, st, out);
        case wire::DIST_FRAG_CONT:
            if (!st.fragments_) return fail("fragment header, but FRAGMENTS was not agreed");
            return next_fragment(p, st, out);
        default:
            return fail(fmt::format("unknown distribution header 131 {}", p[1]));
        }
    }
};

ReceiveState::ReceiveState(bool header_mode, bool fragments, size_t max_buffered)
    : header_mode_(header_mode || fragments), fragments_(fragments), max_buffered_(max_buffered) {
    cache_.fill(NON_VALUE);
}

Result<PacketKind> parse_packet(std::span<const uint8_t> packet, ReceiveState& state, ReceivedMessage& out) {
    return ReceiveAccess::parse(packet, state, out);
}

namespace detail {

Result<void> check_frame_args(std::span<const uint8_t> control_ext, std::span<const uint8_t> payload_ext,
                              const FrameOptions& opts) {
    if (control_ext.size() < 2 || control_ext[0] != wire::VERSION)
        return make_error("frame_message: the control message is not an external term (131 ...)");
    if (!payload_ext.empty() && (payload_ext.size() < 2 || payload_ext[0] != wire::VERSION))
        return make_error("frame_message: the payload is not an external term (131 ...)");
    if (opts.fragments) {
        if (!opts.header_mode) return make_error("frame_message: fragments need header mode");
        if (opts.fragment_size == 0) return make_error("frame_message: fragment size 0");
        const size_t ctl = control_ext.size() - 1;
        const size_t total = ctl + (payload_ext.empty() ? 0 : payload_ext.size() - 1);
        if (total > std::max(opts.fragment_size, ctl) && opts.sequence_id == 0)
            return make_error("frame_message: fragmented message with sequence id 0");
    }
    return {};
}

}  // namespace detail

Result<void> frame_message(std::span<const uint8_t> control_ext, std::span<const uint8_t> payload_ext,
                           bool header_mode, bool fragments_allowed, uint64_t sequence_id, size_t fragment_size,
                           std::vector<std::vector<uint8_t>>& packets) {
    FrameOptions opts{header_mode, fragments_allowed, sequence_id, fragment_size};
    auto n = for_each_packet(control_ext, payload_ext, opts, [&](const PacketPieces& pk) {
        std::vector<uint8_t>& out = packets.emplace_back();
        out.reserve(pk.size);
        for (std::span<const uint8_t> piece : pk.view()) out.insert(out.end(), piece.begin(), piece.end());
    });
    if (!n) return n.take_error();
    return {};
}

void SendAtomCache::header(std::span<const Term> atoms, std::vector<uint8_t>& out) {
    const size_t n = std::min(atoms.size(), size_t(255));
    out.assign(1, uint8_t(n));
    if (n == 0) return;
    // The receiver reads the references in order, each new one refilling its slot, so whether
    // a reference is new is decided in the same order (two atoms of one message may share a
    // slot).
    std::array<bool, 255> fresh;
    bool long_atoms = false;
    const size_t flags_at = out.size();
    out.resize(flags_at + n / 2 + 1, 0);
    for (size_t i = 0; i < n; ++i) {
        const uint32_t slot = atom_index(atoms[i]) % wire::ATOM_CACHE_SIZE;
        fresh[i] = slots_[slot] != atoms[i];
        if (fresh[i]) {
            slots_[slot] = atoms[i];
            long_atoms |= atom_name(atoms[i]).size() > 255;
        }
        out[flags_at + i / 2] |= uint8_t(((fresh[i] ? 8 : 0) | slot >> 8) << (4 * (i & 1)));
    }
    if (long_atoms) out[flags_at + n / 2] |= uint8_t(1 << (4 * (n & 1)));
    for (size_t i = 0; i < n; ++i) {
        const uint32_t slot = atom_index(atoms[i]) % wire::ATOM_CACHE_SIZE;
        out.push_back(uint8_t(slot & 0xFF));
        if (!fresh[i]) continue;
        std::string_view text = atom_name(atoms[i]);
        if (long_atoms) out.push_back(uint8_t(text.size() >> 8));
        out.push_back(uint8_t(text.size()));
        out.insert(out.end(), text.begin(), text.end());
    }
}

}  // namespace beam::dist
