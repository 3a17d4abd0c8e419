// Code generation: a regular expression's tree (bifs/re_tree.hpp) as a backtracking program
// (bifs/re_program.hpp). Captures close with their start kept aside, loops that may match
// nothing check progress, lookaround and called groups get programs of their own.
#include <algorithm>

#include "bifs/re_tree.hpp"

namespace beam::re {

namespace {

class Emitter {
public:
    Emitter(Regex& re, int& registers) : re_(re), registers_(registers) {}

    std::shared_ptr<Program> program(const Node& root, const std::vector<CharClass>& classes) {
        auto prog = std::make_shared<Program>();
        prog_ = prog.get();
        prog_->classes = classes;
        emit(root);
        add({Op::Match});
        return prog;
    }

private:
    int add(Inst in) {
        if (prog_->code.size() > 200000) throw Fail{"regular expression is too large", 0};
        prog_->code.push_back(in);
        return int(prog_->code.size() - 1);
    }
    int here() const { return int(prog_->code.size()); }

    // Whether `n` can match without consuming anything (then loops over it need a check).
    static bool can_be_empty(const Node& n) {
        switch (n.kind) {
        case Node::Char: case Node::Any: case Node::Class: return false;
        case Node::Concat:
            for (const Node& k : n.kids)
                if (!can_be_empty(k)) return false;
            return true;
        case Node::Alt:
            for (const Node& k : n.kids)
                if (can_be_empty(k)) return true;
            return false;
        case Node::Group: case Node::Atomic: return n.kids.empty() || can_be_empty(n.kids[0]);
        case Node::Repeat: return n.min == 0 || can_be_empty(n.kids[0]);
        default: return true;
        }
    }

    void emit(const Node& n) {
        switch (n.kind) {
        case Node::Empty: return;
        case Node::Char: add({Op::Char, n.fold, false, false, 0, 0, n.c}); return;
        case Node::Any: add({Op::Any, false, n.flag}); return;
        case Node::Class: add({Op::Class, false, false, false, n.index}); return;
        case Node::Bol: add({Op::Bol, false, n.flag}); return;
        case Node::Eol: add({Op::Eol, false, n.flag, n.flag2}); return;
        case Node::WordB: add({Op::WordB}); return;
        case Node::NotWordB: add({Op::NotWordB}); return;
        case Node::SubjStart: add({Op::SubjStart}); return;
        case Node::SubjEnd: add({Op::SubjEnd}); return;
        case Node::SubjEndNl: add({Op::SubjEndNl}); return;
        case Node::MatchStart: add({Op::MatchStart}); return;
        case Node::Backref: add({Op::Backref, n.fold, false, false, n.index}); return;
        case Node::Call: add({Op::Call, false, false, false, n.index}); return;
        case Node::Concat:
            for (const Node& k : n.kids) emit(k);
            return;
        case Node::Group: {
            // The start is kept aside until the group closes: a back reference inside the
            // group sees the previous iteration's capture, as in PCRE.
            int start = n.index >= 0 ? registers_++ : -1;
            if (n.index >= 0) add({Op::SetReg, false, false, false, start});
            for (const Node& k : n.kids) emit(k);
            if (n.index >= 0) add({Op::Close, false, false, false, n.index, start});
            return;
        }
        case Node::Alt: {
            std::vector<int> jumps;
            for (size_t i = 0; i < n.kids.size(); ++i) {
                if (i + 1 < n.kids.size()) {
                    int split = add({Op::Split});
                    prog_->code[split].x = here();
                    emit(n.kids[i]);
                    jumps.push_back(add({Op::Jmp}));
                    prog_->code[split].y = here();
                } else {
                    emit(n.kids[i]);
                }
            }
            for (int j : jumps) prog_->code[j].x = here();
            return;
        }
        case Node::Atomic: {
            int reg = registers_++;
            add({Op::AtomicBegin, false, false, false, reg});
            for (const Node& k : n.kids) emit(k);
            add({Op::AtomicEnd, false, false, false, reg});
            return;
        }
        case Node::Repeat: return repeat(n);
        case Node::Look: return look(n);
        }
    }

    void optional(const Node& body, bool greedy) {
        int split = add({Op::Split});
        int first = here();
        emit(body);
        int after = here();
        prog_->code[split].x = greedy ? first : after;
        prog_->code[split].y = greedy ? after : first;
    }

    void star(const Node& body, bool greedy) {
        bool check = can_be_empty(body);
        int reg = check ? registers_++ : -1;
        int loop = add({Op::Split});
        int first = here();
        if (check) add({Op::SetReg, false, false, false, reg});
        emit(body);
        if (check) add({Op::Progress, false, false, false, reg, loop});
        else add({Op::Jmp, false, false, false, loop});
        int after = here();
        prog_->code[loop].x = greedy ? first : after;
        prog_->code[loop].y = greedy ? after : first;
    }

    void repeat(const Node& n) {
        if (n.possessive) {
            Node inner = n;
            inner.possessive = false;
            Node atomic{Node::Atomic};
            atomic.kids.push_back(std::move(inner));
            emit(atomic);
            return;
        }
        const Node& body = n.kids[0];
        for (int i = 0; i < n.min; ++i) emit(body);
        if (n.max < 0) {
            star(body, n.greedy);
        } else {
            // x{0,k}: nested optionals, so a later copy is tried only after an earlier one matched
            std::vector<int> splits;
            for (int i = n.min; i < n.max; ++i) {
                splits.push_back(add({Op::Split}));
                prog_->code[splits.back()].x = here();
                emit(body);
            }
            int after = here();
            for (int s : splits) {
                Inst& in = prog_->code[s];
                int first = in.x;
                in.x = n.greedy ? first : after;
                in.y = n.greedy ? after : first;
            }
        }
    }

    // The number of characters every match of `n` has, or -1.
    static int fixed_length(const Node& n) {
        switch (n.kind) {
        case Node::Char: case Node::Any: case Node::Class: return 1;
        case Node::Concat: {
            int sum = 0;
            for (const Node& k : n.kids) {
                int l = fixed_length(k);
                if (l < 0) return -1;
                sum += l;
            }
            return sum;
        }
        case Node::Alt: {
            int l = fixed_length(n.kids[0]);
            for (const Node& k : n.kids)
                if (fixed_length(k) != l) return -1;
            return l;
        }
        case Node::Group: case Node::Atomic: return n.kids.empty() ? 0 : fixed_length(n.kids[0]);
        case Node::Repeat: {
            if (n.min != n.max) return -1;
            int l = fixed_length(n.kids[0]);
            return l < 0 ? -1 : l * n.min;
        }
        case Node::Backref: case Node::Call: return -1;
        default: return 0;
        }
    }

    void look(const Node& n) {
        LookAround la;
        la.behind = n.behind;
        la.negated = n.negated;
        const Node& inner = n.kids[0];
        Program* outer = prog_;
        auto sub = [&](const Node& body) {
            Emitter e(re_, registers_);
            auto classes = outer->classes;
            auto p = e.program(body, classes);
            // classes may have been added by nothing: the same list serves both
            return p;
        };
        if (n.behind) {
            std::vector<const Node*> branches;
            if (inner.kind == Node::Alt)
                for (const Node& k : inner.kids) branches.push_back(&k);
            else
                branches.push_back(&inner);
            for (const Node* b : branches) {
                int l = fixed_length(*b);
                if (l < 0) throw Fail{"lookbehind assertion is not fixed length", 0};
                la.lengths.push_back(uint32_t(l));
                la.branches.push_back(sub(*b));
            }
        } else {
            la.branches.push_back(sub(inner));
        }
        prog_ = outer;
        prog_->looks.push_back(std::move(la));
        add({Op::Look, false, false, false, int(prog_->looks.size() - 1)});
    }

    Regex& re_;
    int& registers_;
    Program* prog_ = nullptr;
};

}  // namespace

std::shared_ptr<Program> emit_program(Regex& re, int& registers, const Node& root, const std::vector<CharClass>& classes) {
    Emitter e(re, registers);
    return e.program(root, classes);
}

}  // namespace beam::re
