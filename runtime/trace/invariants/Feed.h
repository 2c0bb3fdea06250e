//===- Feed.h - Events in order, as scopes and value streams ----*- C++ -*-===//
//
// What inference and checking share: the Feed takes a trace's events in
// order and turns them into what the relation families reason about.
//
//  - Sites get a text key that names them across builds and runs
//    (`category/name in function at file:line`), interned to a number.
//  - Every region is a scope iteration: the Feed keeps, per thread, the
//    regions still open, and tells the sinks when one ends, with the sites
//    that occurred inside it in the order they first did.
//  - Every recorded value becomes points of value streams: a site's own
//    args, a watch's value (structured values: one stream per field), a
//    model state record per parameter and field, an API call's arguments
//    and result. A site's records have one shape record after record: the
//    Feed keeps it (the names and kinds of the nodes, in preorder, with
//    their streams), checks each record against it by comparing names,
//    and builds stream names only when it changes. Values are walked as
//    flat nodes (reader/ValueDecode.h), from their bytes when the stream
//    kept them encoded (TraceStream::setEncodedValues): no Value is built.
//    A watch record of the shape of its layout's last one (most of them) is
//    read from its bytes against that shape in one walk (readKnown()).
//
// Memory: the open regions of each thread (each with a table over the
// sites), the interned names and each site's layout; nothing per record.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_INVARIANTS_FEED_H
#define SONDE_TRACE_INVARIANTS_FEED_H

#include "Invariants.h"
#include "reader/ValueDecode.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sonde::trace::inv {

/// A leaf value, comparable across records.
struct Scalar {
  enum class Kind : uint8_t { Null, Bool, Int, Float, Str } K = Kind::Null;
  double N = 0;
  std::string S;

  bool isNumber() const {
    return K == Kind::Bool || K == Kind::Int || K == Kind::Float;
  }
  bool operator==(const Scalar &O) const {
    return K == O.K && (K == Kind::Str ? S == O.S : N == O.N);
  }
  bool operator!=(const Scalar &O) const { return !(*this == O); }
  /// As the invariants file and the messages write it.
  std::string text() const;
};

/// Where a stream's values come from; decides which relations apply.
enum class Origin : uint8_t {
  Arg,    ///< a site's own arg (`args:` of a probe)
  Watch,  ///< a watch's value or one of its fields
  State,  ///< a field of a model state record (per parameter)
  ApiArg, ///< an argument of an API call (pre record)
  ApiRet, ///< the result of an API call (post record)
};

/// One open region: an iteration of its site's scope.
struct OpenScope {
  uint32_t Site = 0; ///< interned site
  int64_t Start = 0, End = 0;
  uint64_t Iter = 0; ///< a number unique to this iteration
  uint32_t Thread = 0;
  /// Judged by no relation: the process ended inside it (unfinished), or
  /// its region's record came after records it holds (given early because
  /// the reader's look-ahead was full, TraceStream::late()), so it saw
  /// only the rest of them.
  bool Partial = false;
  /// The sites that occurred inside, in first-occurrence order, with the
  /// time of that first record.
  struct Child {
    uint32_t Site;
    int64_t Ts;
  };
  std::vector<Child> Children;
  /// Per interned site: its index in Children, or -1; so adding a child is
  /// O(1) whatever the number of sites.
  std::vector<int32_t> Pos;
};

/// One value of one stream.
struct Point {
  uint32_t Stream = 0;
  uint32_t Site = 0;
  Origin O = Origin::Watch;
  bool TopLevel = true;   ///< the value itself, not a field of it
  bool HashField = false; ///< a `hash` field: content identity
  Scalar V;
  const Event *E = nullptr;
  /// The regions open around the record, outermost first.
  const std::vector<OpenScope> *Stack = nullptr;
};

class Feed;

/// A test of a leaf's value under which a sink's value() on its stream
/// changes nothing, once it was given a point of that stream (Sink::quiet).
/// The Feed then tells a changing value that passes without a call: a
/// model state record's gradient statistics, checked finite, are new
/// record after record.
struct Quiet {
  bool Never = false;  ///< every value needs the call
  bool Finite = false; ///< a float must be finite
  bool Number = false; ///< a number (Bool, Int, Float) within [Lo, Hi]
  double Lo = -HUGE_VAL, Hi = HUGE_VAL;

  static Quiet never() {
    Quiet Q;
    Q.Never = true;
    return Q;
  }
  /// What passes both.
  void also(const Quiet &O) {
    Never |= O.Never;
    Finite |= O.Finite;
    Number |= O.Number;
    Lo = std::max(Lo, O.Lo);
    Hi = std::min(Hi, O.Hi);
  }
  /// Whether the leaf `N` (a scalar) passes.
  bool passes(const detail::FlatNode &N) const {
    double X;
    switch (N.K) {
    case Value::Kind::Bool:
      X = N.B ? 1 : 0;
      break;
    case Value::Kind::Int:
      X = static_cast<double>(N.I);
      break;
    case Value::Kind::UInt:
      X = static_cast<double>(N.U);
      break;
    case Value::Kind::Float:
      X = N.F;
      if (Finite && !std::isfinite(X))
        return false;
      break;
    default:
      return !Never && !Number;
    }
    return !Never && (!Number || (X >= Lo && X <= Hi));
  }
};

/// What a relation family implements (one for inference, one for checks).
class Sink {
public:
  virtual ~Sink();
  /// Every record, with its site, before its values are streamed.
  virtual void record(Feed &, const Event &, uint32_t /*Site*/) {}
  virtual void value(const Feed &, const Point &) {}
  /// Whether value() wants the points of this stream; asked once per
  /// stream, so that a point goes only to the sinks that use it.
  virtual bool wants(const Feed &, uint32_t /*Stream*/) { return true; }
  /// Whether value() on this stream is a function of the point's value
  /// alone, which changes nothing when given again the value of a call
  /// that found no violation (asked once per stream). When every sink that
  /// wants a stream says so, the Feed does not send a leaf whose value is
  /// the one it sent last, if that one broke nothing: most fields of a
  /// model state record (dtype, shape, numel) are the same record after
  /// record.
  virtual bool pure(const Feed &, uint32_t /*Stream*/) { return false; }
  /// The values of this stream that value() would do nothing with, once
  /// it was given a point of it (asked once per stream, of a pure() sink):
  /// no violation, and nothing noted that a later point reads. When every
  /// sink of a stream gives one, a leaf that passes them all is not sent.
  virtual Quiet quiet(const Feed &, uint32_t /*Stream*/) {
    return Quiet::never();
  }
  /// A region ended (a record past its end arrived, or the trace ended).
  virtual void scopeClosed(const Feed &, const OpenScope &) {}
  /// The trace is over: forget what chains records of one trace.
  virtual void traceEnded(const Feed &) {}
};

class Feed {
public:
  /// `Nesting`: keep which sites occurred inside which (inference only).
  explicit Feed(std::vector<Sink *> Sinks, bool Nesting = false);

  void observe(const Trace &T, const Event &E);
  /// Closes every region still open (the last events of the trace).
  void endTrace();

  /// Only stream the values of sites whose key starts one of `Subjects`
  /// (what a check has invariants about); by default, every site's.
  void onlyStreamsOf(std::vector<std::string> Subjects);

  /// Whether the values of the interned site are streamed.
  bool streamed(uint32_t Site);

  uint32_t intern(const std::string &Key);
  const std::string &name(uint32_t Id) const { return Names[Id]; }
  size_t names() const { return Names.size(); }
  /// The interned id of `Key`, or -1 when no record named it yet.
  int64_t find(const std::string &Key) const;
  /// The site the interned id names, when it is a site (else null).
  const SiteInfo *siteInfo(uint32_t Id) const;
  /// Whether a record of site `Inner` ever occurred inside a region of
  /// site `Outer` (Nesting only).
  bool nested(uint32_t Outer, uint32_t Inner) const;

  /// Where the record is, for a violation.
  Where where(const Event &E, uint32_t Site, std::string Detail) const;
  Where whereAt(int64_t Ts, uint32_t Thread, uint32_t Site,
                std::string Detail) const;
  const Trace *trace() const { return Cur; }
  size_t traces() const { return TraceCount; }
  uint64_t records() const { return Records; }

  /// For a model state record, while its sinks see it: the stream of its
  /// parameter (`site [param]`), or -1.
  int64_t paramStream() const { return CurParamStream; }
  /// While the sinks see a streamed watch record: the member `Key` of its
  /// value, or null (none, or not an object).
  const detail::FlatNode *field(std::string_view Key) const {
    return ValueAt == NoValue ? nullptr
                              : detail::flatMember(Flat, ValueAt, Key);
  }

  /// A check found a violation (CheckSink::violate): a value that did is
  /// sent again when it repeats.
  void violated() const { ++Violations; }

  /// Says something once to whoever runs the command (a warning): what a
  /// relation could not do with these traces, and why.
  void note(std::string Text) { Notes.push_back(std::move(Text)); }
  const std::vector<std::string> &notes() const { return Notes; }

  /// The key of a site: `category/name in function at file:line`.
  static std::string siteKey(const SiteInfo &S);

private:
  /// What a node of a record's value is, for the layout.
  enum class Cat : uint8_t { None, Scalar, Text, Object, List };
  /// One node of a record, in preorder: a member's or an arg's name (empty
  /// for array items: their place says their index), its depth, what it
  /// is, and for a leaf (Scalar, Text) its stream.
  struct Tok {
    // What a record's plan reads of each leaf first, in its first cache
    // line: a model state record runs through two dozen tokens of one of
    // eight parameters' layouts, more than the first-level cache holds.
    Cat C = Cat::None;
    Origin O = Origin::Watch;
    uint8_t Depth = 0;
    bool HashField = false;
    /// A leaf whose stream's sinks are all pure: the value last sent (a
    /// scalar's kind and bits, a string's text, an array's memoKey()), and
    /// whether it broke nothing.
    Value::Kind MemoK = Value::Kind::Null;
    bool Held = false;
    /// A point of this leaf was sent: its sinks' quiet() holds from then.
    bool Sent = false;
    uint32_t Stream = 0;
    uint64_t MemoBits = 0;
    std::string MemoS;
    std::string Name;
    /// The key of a file's string table (FlatNode::TableKey) that had
    /// Name in trace KeyGen: the same pointer then needs no comparison.
    mutable const std::string *Key = nullptr;
    mutable uint64_t KeyGen = 0;
  };
  /// The nodes of a site's records (of one parameter's, for model state),
  /// as the last record had them. Records of a site have the same shape
  /// record after record: checking that a record has it compares names,
  /// and no path is built.
  struct Layout {
    std::vector<Tok> Toks;
    /// The shape of the last record verified against Toks, when every key
    /// of its nodes was a file's string table's: the kind, end and key of
    /// each node, and its roots. A record of the same shape, in the same
    /// trace, has the layout: compared node by node, not walked.
    using SigNode = detail::ShapeNode;
    struct SigRoot {
      uint32_t Node;
      int Depth;
      Origin O;
      /// The name is its node's key (compared with the nodes), else Name.
      bool NameIsKey;
      std::string Name;
    };
    std::vector<SigNode> Sig;
    std::vector<SigRoot> SigRoots;
    uint64_t SigGen = 0; ///< 0: none
    /// The leaves a record of shape Sig sends, in order: the node, its
    /// token, and whether it is a root (the value itself). A stream's sinks
    /// never change once asked (wanted()), so a record of the same shape
    /// sends the same leaves: it runs down this list, not the tree.
    struct Leaf {
      uint32_t Node;
      uint32_t Tok;
      bool TopLevel;
      bool Pure; ///< every sink of its stream is pure (StreamSinks::Pure)
    };
    std::vector<Leaf> Plan;
    bool PlanOk = false; ///< Plan is Sig's (valid while SigGen is)
    /// Sig is a watch record's whose value is its first node (no args of
    /// its own before it): a record may be read against it (readKnown()).
    bool Readable = false;
    /// Then the node whose text chose this layout and its roots (a model
    /// state record's `param`, an API record's `phase`), and that text;
    /// ~0u when none did (a plain watch: its value is its one root).
    uint32_t KeyNode = ~0u;
    std::string KeyText;
    /// Sig's nodes (detail::shapeNodes()), made when a record is first
    /// read against it (NodesOk): readKnown() lends them to the Feed as
    /// Flat for that record and writes only the values.
    std::vector<detail::FlatNode> Nodes;
    bool NodesOk = false;
    /// The reader's number for a structure read by Sig in this trace
    /// (Value::Encoding::Shape; 0: none): a value with that number is read
    /// by readByShape(), without checks.
    uint32_t ShapeNo = 0;
    /// ShapeNo is exact (Value::Encoding::ShapeExact): its values'
    /// payloads are at Places (detail::readAtPlaces()).
    std::vector<detail::PayloadPlace> Places;
    bool PlacesOk = false;
    uint32_t KeyPlace = ~0u;  ///< KeyNode's place in Places, if any
    std::string Param;        ///< model state: the parameter
    uint32_t ParamStream = 0; ///< model state: `site [param]`
  };
  struct SiteLayouts {
    Layout Plain;
    Layout Post; ///< an API site's post records (Plain: its pre records)
    /// Model state: one layout per parameter; records come parameter
    /// after parameter, so the one after the last is tried first.
    std::vector<Layout> Params;
    std::unordered_map<std::string, size_t> ParamIndex;
    size_t NextParam = 0;
    /// An API site's last record was a post record: a pre one comes next.
    bool LastPost = false;
  };

  void beginTrace(const Trace &T);
  uint32_t siteOf(const Trace &T, uint32_t Id);
  void close(std::vector<OpenScope> &Stack);
  /// The layout of a model state record (null if it names no parameter).
  Layout *paramLayout(uint32_t Site);
  /// A watch record read from its value's bytes against the shape of the
  /// layout it most likely has (Layout::Sig: a model state record's, that
  /// of the parameter after the last one; an API record's, of the other
  /// phase than the last one), into Flat in one walk, as flattenRecord()
  /// and the choice of a layout would have made it (its Roots only when
  /// the layout's plan does not serve: rootsOf()): that
  /// layout, or null (another shape, parameter or phase, a value not kept
  /// encoded, args of its own), and then nothing is changed that
  /// flattenRecord() does not make again.
  Layout *readKnown(const Event &E, const SiteInfo &Info, uint32_t Site);
  /// readKnown() against `L`: whether the record has its shape and key
  /// (then L's Nodes are Flat, lent until giveBack()).
  bool readAs(const Value::Encoding &Enc, Layout &L);
  /// Roots for the record read by L's shape (readAs()): those
  /// flattenRecord() lists for it.
  void rootsOf(const Layout &L);
  /// The layout whose Nodes are Flat for this record, or null.
  Layout *Lent = nullptr;
  void giveBack() {
    if (Lent)
      Flat.swap(Lent->Nodes);
    Lent = nullptr;
  }

  /// Flattens the record's own args and value into Flat (each arg, then
  /// the value, in preorder: ValueDecode.h) and lists its roots: the args,
  /// and the value or the parts of it that are streams of their own.
  void flattenRecord(const Event &E, const SiteInfo &Info);
  /// `Known`: the record was read against L's shape (readKnown()).
  void stream(const Event &E, const SiteInfo &Info, uint32_t Site,
              const std::vector<OpenScope> &Stack, Layout &L, bool Known);
  bool verify(uint32_t Node, std::string_view Name, int Depth, Origin O,
              const Layout &L, size_t &Cur) const;
  /// Whether the record has the shape L.Sig notes; noteShape() notes it.
  bool sameShape(const Layout &L) const;

  void noteShape(Layout &L, const Event &E, const SiteInfo &Info) const;
  void build(uint32_t Node, std::string_view Name, bool Item, int Depth,
             Origin O, uint32_t Site, Layout &L);
  void sendAll(uint32_t Node, int Depth, Layout &L, size_t &Cur);
  /// Sends leaf `Node` of token `T` to its stream's sinks, which
  /// wanted(T.Stream) set as CurSinks.
  void sendLeaf(uint32_t Node, Tok &T, bool TopLevel);
  /// While sendAll() runs for a record whose shape was just noted: the
  /// layout whose Plan it lists the leaves it sends into.
  Layout *Planning = nullptr;
  /// The items of an array of scalars as bytes that are equal exactly
  /// when the items are, into MemoBuf.
  void memoKey(uint32_t Node);
  /// Whether memoKey(Node) would make `Memo`, without making it.
  bool sameItems(uint32_t Node, const std::string &Memo) const;
  /// Whether leaf `Node` holds the value `T` last sent, which held; else
  /// notes it as the one sent now (Held false until sent).
  bool repeats(uint32_t Node, Tok &T);
  /// Whether leaf `Node` of a pure stream holds the value `T` last sent,
  /// which held: what repeats() answers true to, without its call or its
  /// notes (a leaf it says no to goes to sendLeaf(), which asks repeats()).
  bool heldRepeat(uint32_t Node, const Tok &T) const {
    const detail::FlatNode &N = Flat[Node];
    if (!T.Held || T.MemoK != N.K)
      return false;
    if (N.K == Value::Kind::String)
      return T.MemoS == N.S;
    if (N.K == Value::Kind::Array)
      return sameItems(Node, T.MemoS);
    return T.MemoBits == N.U;
  }
  Cat catOf(uint32_t Node, int Depth, Origin O) const;
  bool wanted(uint32_t Stream);

  std::vector<Sink *> Sinks;
  bool Nesting;
  std::vector<std::string> Names;
  std::unordered_map<std::string, uint32_t> Ids;
  std::unordered_map<uint32_t, SiteInfo> SiteInfos;
  std::vector<std::vector<bool>> Inside; ///< [outer][inner]

  const Trace *Cur = nullptr;
  std::vector<int64_t> SiteIds; ///< trace site id -> interned, -1 unknown
  bool Filter = false;
  std::vector<std::string> Subjects; ///< sorted
  std::vector<int8_t> Streamed;      ///< per interned id: -1 unknown, 0, 1
  /// Per stream: the sinks that want its points (valid when Known).
  struct StreamSinks {
    bool Known = false;
    bool Pure = false; ///< every sink in Sinks is pure() on it
    Quiet Q;           ///< what passes every sink's quiet() (when Pure)
    std::vector<Sink *> Sinks;
  };
  std::vector<StreamSinks> ToSinks;
  const std::vector<Sink *> *CurSinks = nullptr;
  /// A thread's open regions, and the latest start of its records so far.
  struct ThreadScopes {
    std::vector<OpenScope> Open;
    int64_t LatestStart = INT64_MIN;
  };
  std::unordered_map<uint32_t, ThreadScopes> Stacks; ///< by thread
  /// The scopes of the thread of the last record (null after a clear).
  ThreadScopes *LastStack = nullptr;
  uint32_t LastThread = 0;
  /// Closed scopes' tables and child lists, for the scopes opened next:
  /// a region per step would otherwise grow a list of its own each step.
  std::vector<std::vector<int32_t>> PosPool;
  std::vector<std::vector<OpenScope::Child>> ChildPool;
  uint64_t NextIter = 1;
  size_t TraceCount = 0;
  uint64_t Gen = 0; ///< counts beginTrace(): whose string table keys are
  uint64_t Records = 0;
  std::string PathBuf, TextBuf, MemoBuf;
  mutable uint64_t Violations = 0;
  Point Pt;
  std::vector<SiteLayouts> Layouts; ///< per interned site
  /// The record being streamed, flat (flattenRecord): its nodes, where its
  /// value's are (NoValue: none), and its roots.
  static constexpr uint32_t NoValue = ~0u;
  std::vector<detail::FlatNode> Flat;
  uint32_t ValueAt = NoValue;
  struct Root {
    uint32_t Node;
    std::string_view Name;
    int Depth;
    Origin O;
  };
  std::vector<Root> Roots;
  /// Appends a root field by field: a braced temporary, written in parts
  /// and copied whole, stalled on every record (store forwarding).
  void addRoot(uint32_t Node, std::string_view Name, int Depth, Origin O) {
    Root &R = Roots.emplace_back();
    R.Node = Node;
    R.Name = Name;
    R.Depth = Depth;
    R.O = O;
  }
  /// Whether root `R`'s name is its node's key (a member of a value).
  bool nameIsKey(const Root &R) const {
    const std::string *Key = Flat[R.Node].Key;
    return Key && R.Name.data() == Key->data() && R.Name.size() == Key->size();
  }
  int64_t CurParamStream = -1;
  std::vector<std::string> Notes;
};

/// A file's last component: site keys name files by it, so a trace from
/// another checkout or build directory names the same sites.
std::string shortFile(const std::string &File);
/// The shortest text that reads back as `X` (0.05, not 0.05000000000000000277).
std::string shortestDouble(double X);

} // namespace sonde::trace::inv

#endif // SONDE_TRACE_INVARIANTS_FEED_H
