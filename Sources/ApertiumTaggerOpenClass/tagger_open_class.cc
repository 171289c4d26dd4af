// Each text tagged as if it were the first: Apertium's HMM tagger without the
// state one text leaves to the next. Loaded into Apertium's stages with
// LD_PRELOAD (ApertiumSupport's `ApertiumStagePreload`); see README.md.
//
// libapertium3 (3.8) gives a word whose ambiguity class the tagger was not
// trained on the class of a similar one, found by
// tagger_utils::find_similar_ambiguity_class. That function keeps its answer
// in a reference to the tagger's open class (the classes an unknown word may
// take), so the answer overwrites the open class for the rest of the process:
// every unknown word after such a word, in this text or in any later one, is
// tagged against another open class. One text then translates differently
// after another ("Conscience makes…": "Hace" alone, "Marcas" after a text
// with "included."). Here the search is Apertium's own, over a copy of the
// open class.
//
// The HMM tagger calls the four-argument require_similar_ambiguity_class
// through the procedure linkage table, so this definition, loaded first,
// takes its place; the stages that do not tag never call it.
#include <algorithm>
#include <set>

// The members of libapertium3's classes that are called here, as it exports
// them. Declared, not defined: no layout is assumed, only these symbols.
// (`TaggerData::getOutput` is virtual in Apertium and overridden by no
// tagger: called here directly, by its symbol.)
class Collection {
public:
  int size();
  bool has_not(const std::set<int> &classTags);
  const std::set<int> &operator[](int index);
};

class TaggerData {
public:
  std::set<int> &getOpenClass();
  Collection &getOutput();
};

class TaggerWord;

namespace tagger_utils {
__attribute__((visibility("default"))) std::set<int> &require_similar_ambiguity_class(TaggerData &data, std::set<int> &tags, TaggerWord &word, bool warn);
}

std::set<int> &tagger_utils::require_similar_ambiguity_class(
    TaggerData &data, std::set<int> &tags, TaggerWord &, bool) {
  Collection &classes = data.getOutput();
  if (!classes.has_not(tags)) return tags;
  // Apertium's search: the last trained class, smaller than the best so far
  // (starting from the open class), that holds every tag of the word. The
  // caller copies the answer at once; the tagger runs on one thread.
  static thread_local std::set<int> similar;
  similar = data.getOpenClass();
  for (int index = 0; index < classes.size(); index++) {
    const std::set<int> &candidate = classes[index];
    if (candidate.size() >= similar.size()) continue;
    if (std::includes(candidate.begin(), candidate.end(), tags.begin(), tags.end())) similar = candidate;
  }
  return similar;
}
