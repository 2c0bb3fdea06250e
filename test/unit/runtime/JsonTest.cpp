//===- JsonTest.cpp - The JSON and text writers of the trace tool ---------===//
//
// JsonOut escapes strings eight plain bytes at a time and the rest one by
// one, straight into its buffer: checked here against the rules written
// out plainly (RFC 8259 escapes, U+FFFD for each byte that is not
// well-formed UTF-8, '<' '>' '&' when script-safe), for every byte at every
// position around the eight-byte steps. TextOut pads by bytes as printf
// does, and its chunked writes lose nothing.
//
//===----------------------------------------------------------------------===//

#include "Json.h"
#include "TextOut.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace sonde::trace;

namespace {

/// What JsonOut holds after `Write`.
template <typename F> std::string written(bool ScriptSafe, F Write) {
  TextOut T(nullptr);
  {
    JsonOut J(T, ScriptSafe);
    Write(J);
  }
  return std::string(T.buffer().data(), T.buffer().size());
}

/// The escape of one string, one byte at a time, as the rules say; `Valid`
/// is the length of a well-formed UTF-8 sequence at each byte (0: none).
std::string expected(const std::string &S, bool ScriptSafe) {
  std::string Out = "\"";
  for (size_t I = 0; I < S.size(); ++I) {
    unsigned char C = static_cast<unsigned char>(S[I]);
    if (C == '"' || C == '\\')
      Out += std::string("\\") + static_cast<char>(C);
    else if (C == '\n')
      Out += "\\n";
    else if (C == '\r')
      Out += "\\r";
    else if (C == '\t')
      Out += "\\t";
    else if (C < 0x20 || (ScriptSafe && (C == '<' || C == '>' || C == '&'))) {
      char B[8];
      std::snprintf(B, sizeof B, "\\u%04x", C);
      Out += B;
    } else if (C >= 0x80) {
      // The tests put no multi-byte sequence in: a lone byte above 0x7f
      // is never well-formed.
      Out += "\\ufffd";
    } else {
      Out += static_cast<char>(C);
    }
  }
  return Out + "\"";
}

} // namespace

TEST(JsonOutTest, EveryByteAtEveryPositionIsEscapedAsTheRulesSay) {
  for (bool ScriptSafe : {false, true})
    for (size_t Len = 1; Len <= 20; ++Len)
      for (size_t At = 0; At < Len; ++At)
        for (unsigned C = 0; C < 256; ++C) {
          std::string S(Len, 'a');
          S[At] = static_cast<char>(C);
          std::string Got = written(ScriptSafe, [&](JsonOut &J) { J.str(S); });
          ASSERT_EQ(Got, expected(S, ScriptSafe))
              << "byte " << C << " at " << At << " of " << Len;
        }
}

TEST(JsonOutTest, WellFormedUtf8IsKeptAcrossTheEightByteSteps) {
  // "é" and "€" and U+1F600 straddling each eight-byte boundary.
  for (const std::string Seq : {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"})
    for (size_t Pad = 0; Pad < 10; ++Pad) {
      std::string S = std::string(Pad, 'x') + Seq + "yyyyyyyy";
      EXPECT_EQ(written(false, [&](JsonOut &J) { J.str(S); }), "\"" + S + "\"");
      // Cut short, each byte of the sequence alone becomes U+FFFD.
      std::string Cut = std::string(Pad, 'x') + Seq.substr(0, Seq.size() - 1);
      std::string Want = "\"" + std::string(Pad, 'x');
      for (size_t I = 1; I < Seq.size(); ++I)
        Want += "\\ufffd";
      EXPECT_EQ(written(false, [&](JsonOut &J) { J.str(Cut); }), Want + "\"");
    }
}

TEST(JsonOutTest, KeysSuffixesAndSeparators) {
  EXPECT_EQ(written(false,
                    [](JsonOut &J) {
                      J.open().key("a\"b").num(int64_t(-3));
                      J.key("n").str("train", ".start");
                      J.key("d").num(1e10).key("e").num(0.1);
                      J.key("m").micros(-1500).close();
                    }),
            R"({"a\"b":-3,"n":"train.start","d":1e+10,"e":0.1,"m":-1.500})");
}

TEST(TextOutTest, PadsByBytesAsPrintfDoes) {
  TextOut T(nullptr);
  T.left("\xc3\xa9t\xc3\xa9", 8).put('|').right("ab", 4).put('|');
  T.left("longer than", 3).put('|');
  char B[64];
  std::snprintf(B, sizeof B, "%-8s|%4s|%-3s|", "\xc3\xa9t\xc3\xa9", "ab",
                "longer than");
  EXPECT_EQ(std::string(T.buffer().data(), T.buffer().size()), B);
}

TEST(TextOutTest, ChunkedWritesKeepEveryByteInOrder) {
  std::FILE *F = std::tmpfile();
  ASSERT_NE(F, nullptr);
  std::string Want;
  {
    TextOut T(F);
    for (int I = 0; I < 100000; ++I) {
      T.print("{} ", I);
      Want += std::to_string(I) + " ";
    }
  }
  std::string Got(Want.size() + 1, '\0');
  ASSERT_EQ(std::fseek(F, 0, SEEK_SET), 0);
  Got.resize(std::fread(Got.data(), 1, Got.size(), F));
  std::fclose(F);
  EXPECT_EQ(Got, Want);
}
