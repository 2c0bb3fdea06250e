//===- SelectorNormalize.cpp - A selector in normal form ------------------===//
//
// normalize() turns the frames of a parsed selector into a Query: the
// context frames, the host function, its captures, and what fires (the
// whole body, an item, or a range). Shapes that parse but mean nothing are
// refused here, located in the selector text.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/Selector.h"

using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

std::string thisMessage() {
  return "'this' is not a variable of the function; record a member with "
         "'args: {v: \"this->v\"}'";
}

Error normError(unsigned Offset, unsigned Length, const Twine &Msg) {
  return make_error<SelectorError>(Offset, Length, Msg.str());
}

} // namespace

Expected<Query> normalize(const Selector &Sel) {
  Query Q;
  // `*` before another frame is the glob of every function, not "every
  // local".
  Selector S = Sel;
  for (size_t I = 0; I + 1 < S.Frames.size(); ++I) {
    Frame &F = S.Frames[I];
    if (F.Func || F.Items.size() != 1)
      continue;
    const Item &It = F.Items.front();
    if (It.Kind == TargetKind::Star && It.Type.empty() && It.As.empty() &&
        It.Range == RangeMark::None) {
      F.Func = FuncGlob{"*", "", It.Offset, 1};
      F.Items.clear();
    }
  }
  const std::vector<Frame> &Fs = S.Frames;
  size_t N = Fs.size();
  const Frame &Last = Fs.back();
  // The last frame is an item when it is one, or when it is a bare
  // identifier following another frame (`train_epoch > loss`).
  bool LastIsItem = !Last.Func || (N > 1 && Last.BareName);
  size_t HostIdx = LastIsItem ? N - 2 : N - 1;
  if (N == 1 && !Last.Func && Last.Items.front().Kind == TargetKind::Star &&
      Last.Items.front().Type.empty() && Last.Items.front().As.empty()) {
    // `*` alone: every function.
    Q.Host = FuncGlob{"*", "", Last.Offset, 1};
    Q.Focus = FocusKind::Function;
    return Q;
  }
  if (LastIsItem && N == 1) {
    if (Last.Items.front().Kind == TargetKind::Call &&
        Last.Items.front().Range == RangeMark::None) {
      // `F()` alone: its calls in every function.
      Q.Host = FuncGlob{"*", "", Last.Offset, 0};
      Q.Focus = FocusKind::Item;
      Q.FocusItem = Last.Items.front();
      return Q;
    }
    return normError(Last.Offset, Last.Length,
                     "an item needs the function it is in; write 'F > " +
                         Last.Items.front().spelling() + "'");
  }
  // The host first: the messages about context frames name it (found by
  // fuzz-selector: `f(x) > $y > z` read the name of a host that had none).
  const Frame &Host = Fs[HostIdx];
  for (size_t I = 0; I < HostIdx; ++I) {
    const Frame &F = Fs[I];
    if (!F.Func)
      return normError(F.Offset, F.Length,
                       "only the last frame may be a variable, a meta or a "
                       "call; context frames are functions");
    if (!F.Items.empty() && Host.Func)
      return normError(F.Items.front().Offset, F.Items.front().Length,
                       "captures are taken in the frame that holds the "
                       "focus; move them to '" +
                           Host.Func->Glob + "(...)'");
  }
  if (!Host.Func)
    return normError(Host.Offset, Host.Length,
                     "only the last frame may be a variable, a meta or a "
                     "call; context frames are functions");
  for (size_t I = 0; I < HostIdx; ++I)
    Q.Context.push_back(*Fs[I].Func);
  Q.Host = *Host.Func;
  bool HasStart = false, HasEnd = false;
  for (const Item &I : Host.Items) {
    if (I.Range == RangeMark::Start) {
      if (HasStart)
        return normError(I.Offset, I.Length, "a frame has one range start");
      HasStart = true;
      Q.RangeStart = I;
    } else if (I.Range == RangeMark::End) {
      if (HasEnd)
        return normError(I.Offset, I.Length, "a frame has one range end");
      HasEnd = true;
      Q.RangeEnd = I;
    } else {
      if (I.Kind != TargetKind::Variable)
        return normError(I.Offset, I.Length,
                         "a capture is a variable name ('x' or 'x as y'); '" +
                             I.spelling() + "' cannot be captured");
      if (I.Name == "this")
        return normError(I.Offset, I.Length, thisMessage());
      Q.Captures.push_back(I);
    }
  }
  if (HasStart != HasEnd) {
    const Item &I = HasStart ? Q.RangeStart : Q.RangeEnd;
    return normError(I.Offset, I.Length,
                     HasStart ? "range start '!" + I.spelling() +
                                    "' needs an end '!!B' in the same frame"
                              : "'!!" + I.spelling() +
                                    "' ends a range and needs a start '!A' "
                                    "in the same frame (ptera's total probes "
                                    "are not supported)");
  }
  for (const Item *I : {&Q.RangeStart, &Q.RangeEnd}) {
    if (!HasStart)
      break;
    if (I->Kind == TargetKind::Star || I->Kind == TargetKind::AnyVariable ||
        I->Meta == MetaKind::Value || I->Meta == MetaKind::Error ||
        I->Meta == MetaKind::AnyLoop || I->Kind == TargetKind::Call ||
        (I == &Q.RangeStart && I->Meta == MetaKind::Exit))
      return normError(I->Offset, I->Length,
                       "'" + I->spelling() +
                           "' cannot bound a range; use a variable, "
                           "#enter, #exit, #loop_X or #endloop_X");
  }
  if (LastIsItem) {
    if (HasStart)
      return normError(
          Last.Offset, Last.Length,
          "a range '!A, !!B' is the focus itself; drop '> " +
              (Last.Func ? Last.Func->Glob : Last.Items.front().spelling()) +
              "'");
    Q.Focus = FocusKind::Item;
    if (Last.Func) {
      Item I;
      I.Kind = TargetKind::Variable;
      I.Name = Last.Func->Glob;
      I.Offset = Last.Offset;
      I.Length = Last.Length;
      Q.FocusItem = I;
    } else {
      Q.FocusItem = Last.Items.front();
    }
    if (Q.FocusItem.Kind == TargetKind::Variable && Q.FocusItem.Name == "this")
      return normError(Q.FocusItem.Offset, Q.FocusItem.Length, thisMessage());
    if (Q.FocusItem.Range != RangeMark::None)
      return normError(Q.FocusItem.Offset, Q.FocusItem.Length,
                       "a range is written inside a frame's parens: "
                       "'F(!A, !!B)'");
    return Q;
  }
  Q.Focus = HasStart ? FocusKind::Range : FocusKind::Function;
  return Q;
}

} // namespace rewriter
} // namespace sonde
