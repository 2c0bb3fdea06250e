//===- LiveCommand.cpp - `sonde live` -------------------------------------===//
//
// The loop of `sonde live`: every 100 ms, poll the followed files (new
// blocks become events: printed at once with --jsonl, tested against the
// --fail-on conditions, added to the LiveState); every interval, draw the
// dashboard or print a --plain line. It ends when every followed process
// has written its End block, on q or Ctrl-C, or when a condition holds.
// The terminal is put back as it was on every way out.
//
//===----------------------------------------------------------------------===//

#include "live/LiveCommand.h"

#include "Export.h"
#include "Json.h"
#include "live/Conditions.h"
#include "live/Dashboard.h"
#include "live/Follower.h"
#include "live/LiveState.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

namespace sonde::trace::live {

namespace {

/// How often the files are looked at: the most `sonde live` adds to the
/// writer's delay (SONDE_FLUSH_DELAY) before a record is shown.
constexpr int PollMs = 100;

volatile std::sig_atomic_t StopRequested = 0;
void onStop(int) { StopRequested = 1; }

enum class Mode { Dashboard, Plain, Jsonl };

struct LiveOptions {
  Mode How = Mode::Dashboard;
  bool ModeGiven = false;
  double IntervalS = 1, WindowS = 10;
  std::vector<std::string> Inputs;
  std::vector<Condition> Conditions;
};

int usageError(const std::string &Msg, const std::string &Usage) {
  std::fprintf(stderr, "sonde: error: %s\n%s", Msg.c_str(), Usage.c_str());
  return 2;
}

/// A number of seconds for `Flag`: more than 0, at most an hour.
bool parseSeconds(const std::string &Flag, const std::string &Text, double &Out,
                  std::string &Error) {
  char *End = nullptr;
  double V = std::strtod(Text.c_str(), &End);
  if (Text.empty() || *End != '\0' || !std::isfinite(V) || V <= 0 || V > 3600) {
    Error = "'" + Flag + " " + Text +
            "': expected a number of seconds, more than 0 and at most 3600";
    return false;
  }
  Out = V;
  return true;
}

/// The terminal of the dashboard: keys without Enter, no echo, no cursor;
/// all put back by the destructor.
class Terminal {
public:
  Terminal() {
    if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &Saved) == 0) {
      termios Raw = Saved;
      Raw.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO));
      Raw.c_cc[VMIN] = 0;
      Raw.c_cc[VTIME] = 0;
      Keys = tcsetattr(STDIN_FILENO, TCSANOW, &Raw) == 0;
    }
    std::fputs("\033[?25l\033[H\033[2J", stdout);
    std::fflush(stdout);
  }
  ~Terminal() {
    std::fputs("\033[?25h", stdout);
    std::fflush(stdout);
    if (Keys)
      tcsetattr(STDIN_FILENO, TCSANOW, &Saved);
  }
  Terminal(const Terminal &) = delete;
  Terminal &operator=(const Terminal &) = delete;

  /// Waits up to `Ms` for a key; true when it was q.
  bool waitForQuit(int Ms) {
    if (!Keys) {
      poll(nullptr, 0, Ms);
      return false;
    }
    pollfd P{STDIN_FILENO, POLLIN, 0};
    if (poll(&P, 1, Ms) <= 0)
      return false;
    char C[16];
    ssize_t N = read(STDIN_FILENO, C, sizeof C);
    for (ssize_t I = 0; I < N; ++I)
      if (C[I] == 'q' || C[I] == 'Q')
        return true;
    return false;
  }

  void draw(const std::vector<std::string> &Lines) {
    std::string Out = "\033[H";
    for (const std::string &L : Lines)
      Out += L + "\033[K\r\n";
    Out += "\033[J";
    std::fwrite(Out.data(), 1, Out.size(), stdout);
    std::fflush(stdout);
  }

  static void size(size_t &Width, size_t &Height) {
    winsize W{};
    Width = 80;
    Height = 24;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &W) == 0 && W.ws_col && W.ws_row) {
      Width = W.ws_col;
      Height = W.ws_row;
    }
  }

private:
  termios Saved{};
  bool Keys = false;
};

/// What the followed files' records go to.
class Run : public LiveSink {
public:
  Run(LiveOptions &O, LiveState &S) : O(O), S(S), J(stdout) {}

  void started(const FileFollower &F) override {
    S.started(F);
    if (O.How != Mode::Jsonl)
      return;
    if (!HaveOrigin) {
      Origin = F.trace().Process.StartNs;
      HaveOrigin = true;
    }
    jsonlProcess(J, F.trace(), false, Origin);
  }

  void event(const FileFollower &F, const Event &E) override {
    if (Held)
      return; // the run stops at the first condition that holds
    S.event(F, E);
    if (O.How == Mode::Jsonl)
      jsonlEvent(J, F.trace(), E, Origin);
    if (E.Kind != EventKind::Watch || O.Conditions.empty())
      return;
    const SiteInfo &Site = F.trace().site(E.Site);
    const Value *Scalar = scalarOf(E.V);
    for (Condition &C : O.Conditions) {
      if (!C.names(Site))
        continue;
      C.Seen = true;
      if (!Scalar || !Scalar->isNumber() || !C.holds(Scalar->number()))
        continue;
      alarm(F, E, C, Scalar->number());
      return;
    }
  }

  void ended(const FileFollower &F) override {
    S.ended(F);
    if (O.How == Mode::Jsonl)
      jsonlProcess(J, F.trace(), true, Origin);
  }

  void flush() {
    J.flush();
    std::fflush(stdout); // a pipe is fully buffered: a line must go now
  }

  /// The rate conditions, on the steps closed since the last refresh.
  void rates() {
    const LiveRateSample &R = S.rates();
    if (Held || !R.HasInterval)
      return;
    for (Condition &C : O.Conditions) {
      if (C.Of == Condition::Rate::None)
        continue;
      C.Seen = true;
      double V = C.Of == Condition::Rate::Train     ? R.IntervalTrain
                 : C.Of == Condition::Rate::Loading ? R.IntervalLoading
                                                    : R.IntervalCompute;
      if (!C.holds(V))
        continue;
      Held = true;
      char Num[32];
      std::snprintf(Num, sizeof Num, "%.1f", V);
      Alarm = "sonde: error: --fail-on '" + C.Text + "' holds: " + C.Name +
              " = " + Num + " items/s over the steps of the last interval (" +
              std::to_string(R.Steps) +
              " steps after the warm-up so far; docs/rates.md)\n";
      return;
    }
  }

  bool Held = false;
  std::string Alarm; ///< what to say when a condition held

private:
  void alarm(const FileFollower &F, const Event &E, const Condition &C,
             double V) {
    Held = true;
    const Trace &T = F.trace();
    const SiteInfo &Site = T.site(E.Site);
    char Num[32];
    std::snprintf(Num, sizeof Num, "%g", V);
    std::string Where;
    if (const Value *Ep = liveArg(E, "epoch"); Ep && Ep->isNumber())
      Where +=
          " at epoch " + std::to_string(static_cast<int64_t>(Ep->number()));
    if (const Value *St = liveArg(E, "step"); St && St->isNumber())
      Where += std::string(Where.empty() ? " at" : ",") + " step " +
               std::to_string(static_cast<int64_t>(St->number()));
    Alarm = "sonde: error: --fail-on '" + C.Text + "' holds: " + Site.Name +
            " = " + Num + Where + ", rank " + std::to_string(T.Process.Rank) +
            " (pid " + std::to_string(T.Process.Pid) + "), recorded at " +
            Site.File + ":" + std::to_string(Site.Line) + "\n";
    // The record itself, as --jsonl prints it.
    std::FILE *Mem = open_memstream(&Buf, &BufLen);
    if (Mem) {
      {
        JsonOut R(Mem);
        jsonlEvent(R, T, E, T.Process.StartNs);
      }
      std::fclose(Mem);
      Alarm += std::string(Buf, BufLen);
      std::free(Buf);
      Buf = nullptr;
    }
  }

  LiveOptions &O;
  LiveState &S;
  JsonOut J;
  int64_t Origin = 0;
  bool HaveOrigin = false;
  char *Buf = nullptr;
  size_t BufLen = 0;
};

int64_t wallNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

} // namespace

int runLiveCommand(int Argc, char **Argv, const std::string &Usage) {
  LiveOptions O;
  bool Ended = false;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    if (Ended || A.empty() || A[0] != '-') {
      O.Inputs.push_back(A);
      continue;
    }
    if (A == "--") {
      Ended = true;
      continue;
    }
    std::string Flag = A, Value;
    bool Inline = false;
    if (size_t Eq = A.find('='); A.rfind("--", 0) == 0 && Eq != A.npos) {
      Flag = A.substr(0, Eq);
      Value = A.substr(Eq + 1);
      Inline = true;
    }
    if (Flag == "--jsonl" || Flag == "--plain") {
      if (Inline)
        return usageError("'" + Flag + "' takes no value", Usage);
      Mode M = Flag == "--jsonl" ? Mode::Jsonl : Mode::Plain;
      if (O.ModeGiven && O.How != M)
        return usageError("'--jsonl' and '--plain' cannot be used together",
                          Usage);
      O.How = M;
      O.ModeGiven = true;
      continue;
    }
    if (Flag != "--fail-on" && Flag != "--interval" && Flag != "--window")
      return usageError("unknown option '" + A + "' for 'live'", Usage);
    if (!Inline) {
      if (I + 1 >= Argc)
        return usageError("'" + A + "' needs a value", Usage);
      Value = Argv[++I];
    }
    std::string Error;
    if (Flag == "--fail-on") {
      Condition C;
      ConditionError CE;
      if (!parseCondition(Value, C, CE))
        return usageError("--fail-on " + CE.render(Value), Usage);
      O.Conditions.push_back(std::move(C));
    } else if (!parseSeconds(Flag, Value,
                             Flag == "--interval" ? O.IntervalS : O.WindowS,
                             Error)) {
      return usageError(Error, Usage);
    }
  }
  if (O.Inputs.empty())
    O.Inputs.push_back("."); // where libsonde writes without SONDE_OUTPUT
  // Plain lines when the output is not a terminal (a log, a pipe).
  if (!O.ModeGiven && !isatty(STDOUT_FILENO))
    O.How = Mode::Plain;

  struct sigaction Act{};
  Act.sa_handler = onStop;
  sigemptyset(&Act.sa_mask);
  sigaction(SIGINT, &Act, nullptr);
  sigaction(SIGTERM, &Act, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  std::string Waiting = "waiting for trace files in";
  for (const std::string &In : O.Inputs)
    Waiting += " " + In;
  Follower F(O.Inputs);
  LiveState S(static_cast<int64_t>(O.WindowS * 1e9));
  Run R(O, S);
  std::unique_ptr<Terminal> Term;
  if (O.How == Mode::Dashboard)
    Term = std::make_unique<Terminal>();

  LiveStatus St;
  St.Waiting = Waiting;
  bool Quit = false, SaidWaiting = false;
  auto Interval = std::chrono::duration<double>(O.IntervalS);
  auto NextShow = std::chrono::steady_clock::now();
  auto Status = [&] {
    St.NowNs = wallNs();
    St.Files = St.Running = St.Ended = 0;
    St.Dropped = 0;
    for (const auto &File : F.files()) {
      if (!File->started())
        continue;
      ++St.Files;
      St.Ended += File->ended();
      St.Running += !File->ended();
      St.Dropped += File->dropped();
    }
    St.Done = F.allEnded();
  };
  auto Show = [&] {
    Status();
    S.tickRates();
    R.rates();
    if (O.How == Mode::Dashboard) {
      size_t W, H;
      Terminal::size(W, H);
      Term->draw(dashboard(S, St, W, H));
    } else if (O.How == Mode::Plain) {
      if (St.Files == 0) {
        if (SaidWaiting)
          return;
        SaidWaiting = true;
      }
      std::printf("%s\n", plainLine(S, St).c_str());
      std::fflush(stdout);
    }
  };
  for (;;) {
    F.poll(R);
    R.flush();
    for (const std::string &Note : F.takeNotes()) {
      St.Note = Note;
      if (O.How != Mode::Dashboard)
        std::fprintf(stderr, "sonde: warning: %s\n", Note.c_str());
    }
    if (R.Held || F.allEnded() || StopRequested || Quit)
      break;
    if (std::chrono::steady_clock::now() >= NextShow) {
      Show();
      NextShow +=
          std::chrono::duration_cast<std::chrono::nanoseconds>(Interval);
      if (NextShow < std::chrono::steady_clock::now())
        NextShow = std::chrono::steady_clock::now();
    }
    if (Term)
      Quit = Term->waitForQuit(PollMs);
    else
      poll(nullptr, 0, PollMs);
  }
  Show(); // the final state
  Term.reset();
  if (R.Held) {
    std::fputs(R.Alarm.c_str(), stderr);
    return ConditionHeld;
  }
  for (const Condition &C : O.Conditions)
    if (!C.Seen && C.Of != Condition::Rate::None)
      std::fprintf(stderr,
                   "sonde: warning: --fail-on '%s': no steps with an item "
                   "count (a probe's 'items:') were recorded after the "
                   "warm-up, so it was never tested\n",
                   C.Text.c_str());
    else if (!C.Seen)
      std::fprintf(stderr,
                   "sonde: warning: --fail-on '%s': no watch named '%s' was "
                   "recorded, so it was never tested\n",
                   C.Text.c_str(), C.Name.c_str());
  for (const auto &File : F.files())
    if (File->failed())
      return 1;
  return 0;
}

} // namespace sonde::trace::live
