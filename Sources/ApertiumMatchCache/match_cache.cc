// Apertium's attribute matches, remembered: the transfer stages without the
// ICU regular-expression matcher they build for every clip of every word.
// Loaded into Apertium's stages with LD_PRELOAD (ApertiumSupport's
// `ApertiumStagePreload`); see README.md.
//
// libapertium3 (3.8) reads an attribute of a word (its gender, number, the
// whole of its tags) with `ApertiumRE::match`, which copies the word into an
// ICU string, builds a `RegexMatcher`, searches, and copies the group out:
// 43% of `apertium-transfer`'s CPU on English–Spanish, where the rules ask
// the same attribute of the same word many times. Its answer depends only
// on the pattern the object holds and on the text, so it is remembered here,
// per object and text, and every other call goes to Apertium unchanged.
//
// The pattern of an object changes only when it is built, compiled or
// destroyed (ApertiumRE holds a pattern it owns and has no assignment that
// could share one): those three are interposed too, and each forgets
// everything remembered, so no answer outlives the pattern it came from.
#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

// libapertium3's class as it exports it: declared, not defined, so that no
// layout is assumed; only these symbols, which its stages call through the
// procedure linkage table, so that the definitions below, loaded first, take
// their place.
class __attribute__((visibility("default"))) ApertiumRE {
public:
  ApertiumRE();
  ~ApertiumRE();
  std::u16string match(std::u16string const &text) const;
  void compile(std::u16string const &pattern);
};

namespace {

// Apertium's definitions (the next after this library's), called with the
// object first, as the C++ ABI passes `this` (after the result's address,
// for `match`, which the ABI passes first in both cases).
using Construct = void (*)(ApertiumRE *);
using Destroy = void (*)(ApertiumRE *);
using Match = std::u16string (*)(ApertiumRE const *, std::u16string const &);
using Compile = void (*)(ApertiumRE *, std::u16string const &);

template <typename Function> Function apertium(char const *name) {
  void *symbol = dlsym(RTLD_NEXT, name);
  if (!symbol) {
    // Only code linked with libapertium calls these, so it is loaded.
    std::fprintf(stderr, "apertium-match-cache: libapertium's %s is not loaded\n", name);
    std::abort();
  }
  return reinterpret_cast<Function>(symbol);
}

// Bumped whenever a pattern may have changed: what was remembered before is forgotten.
std::atomic<uint64_t> generation{1};

struct Entry {
  ApertiumRE const *owner = nullptr;
  uint64_t generation = 0;
  uint64_t hash = 0;
  std::u16string text;
  std::u16string answer;
};

// Direct-mapped: a new answer takes the place of the one whose hash shares its slot.
constexpr size_t slots = 1 << 13;
// Longer texts (a chunk's whole contents, rarely asked twice) are not remembered.
constexpr size_t longestText = 256;

uint64_t hashOf(ApertiumRE const *owner, std::u16string const &text) {
  uint64_t hash = 0xcbf29ce484222325u ^ reinterpret_cast<uintptr_t>(owner);
  for (char16_t unit : text) hash = (hash ^ unit) * 0x100000001b3u;
  return hash ^ (hash >> 29);
}

void forget() { generation.fetch_add(1, std::memory_order_acq_rel); }

}  // namespace

ApertiumRE::ApertiumRE() {
  static Construct const original = apertium<Construct>("_ZN10ApertiumREC1Ev");
  forget();
  original(this);
}

ApertiumRE::~ApertiumRE() {
  static Destroy const original = apertium<Destroy>("_ZN10ApertiumRED1Ev");
  forget();
  original(this);
}

void ApertiumRE::compile(std::u16string const &pattern) {
  static Compile const original =
      apertium<Compile>("_ZN10ApertiumRE7compileERKNSt7__cxx1112basic_stringIDsSt11char_traitsIDsESaIDsEEE");
  forget();
  original(this, pattern);
  forget();
}

std::u16string ApertiumRE::match(std::u16string const &text) const {
  static Match const original =
      apertium<Match>("_ZNK10ApertiumRE5matchERKNSt7__cxx1112basic_stringIDsSt11char_traitsIDsESaIDsEEE");
  if (text.size() > longestText) return original(this, text);
  // The stages run on one thread; a table per thread keeps any other safe.
  static thread_local Entry *table = nullptr;
  if (!table) table = new Entry[slots];
  uint64_t const now = generation.load(std::memory_order_acquire);
  uint64_t const hash = hashOf(this, text);
  Entry &entry = table[hash & (slots - 1)];
  if (entry.generation == now && entry.owner == this && entry.hash == hash && entry.text == text) return entry.answer;
  std::u16string answer = original(this, text);
  // Remembered only if no pattern changed meanwhile.
  if (generation.load(std::memory_order_acquire) == now) {
    entry.owner = this;
    entry.generation = now;
    entry.hash = hash;
    entry.text = text;
    entry.answer = answer;
  }
  return answer;
}
