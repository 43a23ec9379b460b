// Boost.Graph implementations of cell groups, incremental features and region graphs.
#include "host/feature_graph.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/incremental_components.hpp>
#include <boost/pending/disjoint_sets.hpp>
#include <unordered_map>

namespace plateau {

using UGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

std::vector<std::vector<Coord>> CellGroups(const Grid& grid, const std::function<bool(const Cell&)>& member) {
  std::vector<Coord> cells;
  grid.OccupiedCells(&cells);
  std::vector<int> index_of;
  std::vector<Coord> members;
  const Bounds& b = grid.bounds();
  if (b.empty()) return {};
  index_of.assign(static_cast<size_t>(b.rows() * b.cols()), -1);
  for (const Coord& c : cells) {
    if (!member(*grid.Get(c.row, c.col))) continue;
    index_of[static_cast<size_t>((c.row - b.min_row) * b.cols() + (c.col - b.min_col))] = static_cast<int>(members.size());
    members.push_back(c);
  }
  UGraph g(members.size());
  auto idx = [&](int r, int c) -> int {
    if (r < b.min_row || r > b.max_row || c < b.min_col || c > b.max_col) return -1;
    return index_of[static_cast<size_t>((r - b.min_row) * b.cols() + (c - b.min_col))];
  };
  for (size_t i = 0; i < members.size(); ++i) {
    const int right = idx(members[i].row, members[i].col + 1);
    const int down = idx(members[i].row + 1, members[i].col);
    if (right >= 0) boost::add_edge(i, static_cast<size_t>(right), g);
    if (down >= 0) boost::add_edge(i, static_cast<size_t>(down), g);
  }
  std::vector<int> component(members.size());
  const int n = members.empty() ? 0 : boost::connected_components(g, component.data());
  std::vector<std::vector<Coord>> groups(static_cast<size_t>(n));
  // connected_components numbers components in vertex order, which is row-major here.
  for (size_t i = 0; i < members.size(); ++i) groups[static_cast<size_t>(component[i])].push_back(members[i]);
  return groups;
}

// ---------------------------------------------------------------------------------------

// A feature's segments are a union-find set (Boost's disjoint sets) plus a ring through its
// members (`next`), so describing a feature costs its own size, not the whole map's: bots
// describe every occupied feature once per candidate move. There is no adjacency graph: every
// state copy (a bot's trial, a save) would copy it, and nothing reads it.
struct FeatureGraph::Impl {
  std::vector<std::string> kind;
  std::vector<int> open;  // open edges per segment, summed at the root
  std::vector<int> rank, parent;
  std::vector<int> next;  // the ring of a feature's segments
  std::vector<std::map<int, int>> occupants;          // valid at roots
  std::vector<std::map<std::string, int>> tally;      // valid at roots
  std::vector<uint64_t> version;                      // valid at roots (Version)
  std::vector<std::pair<int, int>> connections;

  void Touch(int root) { version[static_cast<size_t>(root)] = NewContentVersion(); }

  void Start(Journal* j) const {
    if (!j || j->started) return;
    j->started = true;
    j->segments = kind.size();
    j->connections = connections.size();
    j->slots.clear();
  }
  // Before changing segment x in place. A segment added since Start goes with the undo.
  void Keep(Journal* j, int x) const {
    if (!j || static_cast<size_t>(x) >= j->segments) return;
    const size_t i = static_cast<size_t>(x);
    j->slots.push_back({x, open[i], rank[i], parent[i], next[i], version[i], occupants[i], tally[i]});
  }

  int FindRoot(int x) const {
    while (parent[static_cast<size_t>(x)] != x) x = parent[static_cast<size_t>(x)];
    return x;
  }
};

FeatureGraph::FeatureGraph() : impl_(std::make_unique<Impl>()) {}
FeatureGraph::~FeatureGraph() = default;
FeatureGraph::FeatureGraph(const FeatureGraph& o) : impl_(std::make_unique<Impl>(*o.impl_)) {}
FeatureGraph& FeatureGraph::operator=(const FeatureGraph& o) {
  *impl_ = *o.impl_;
  return *this;
}

int FeatureGraph::AddSegment(const std::string& kind, int open_edges, Journal* journal) {
  impl_->Start(journal);
  const int id = static_cast<int>(impl_->kind.size());
  impl_->kind.push_back(kind);
  impl_->next.push_back(id);
  impl_->open.push_back(open_edges);
  impl_->rank.push_back(0);
  impl_->parent.push_back(id);
  impl_->occupants.emplace_back();
  impl_->tally.emplace_back();
  impl_->version.push_back(NewContentVersion());
  return id;
}

bool FeatureGraph::Connect(int a, int b, std::string* why, Journal* journal) {
  const int n = segment_count();
  if (a < 0 || b < 0 || a >= n || b >= n) {
    if (why) *why = "unknown segment";
    return false;
  }
  if (impl_->kind[static_cast<size_t>(a)] != impl_->kind[static_cast<size_t>(b)]) {
    if (why) *why = "cannot join a " + impl_->kind[static_cast<size_t>(a)] + " to a " + impl_->kind[static_cast<size_t>(b)];
    return false;
  }
  impl_->Start(journal);
  impl_->connections.emplace_back(a, b);
  // Union by rank through Boost's disjoint sets over our own rank/parent storage.
  boost::disjoint_sets<int*, int*> sets(impl_->rank.data(), impl_->parent.data());
  int ra = impl_->FindRoot(a), rb = impl_->FindRoot(b);
  impl_->Keep(journal, ra);
  if (rb != ra) impl_->Keep(journal, rb);
  // One open edge closes on each side of the shared border.
  impl_->open[static_cast<size_t>(ra)] -= 1;
  impl_->open[static_cast<size_t>(rb)] -= (ra == rb ? 1 : 1);
  if (ra == rb) {  // a loop closing on itself
    impl_->Touch(ra);
    return true;
  }
  sets.link(ra, rb);
  std::swap(impl_->next[static_cast<size_t>(ra)], impl_->next[static_cast<size_t>(rb)]);  // splices the two rings
  const int root = impl_->FindRoot(ra);
  const int other = root == ra ? rb : ra;
  impl_->open[static_cast<size_t>(root)] += impl_->open[static_cast<size_t>(other)];
  impl_->open[static_cast<size_t>(other)] = 0;
  for (auto& [owner, k] : impl_->occupants[static_cast<size_t>(other)]) impl_->occupants[static_cast<size_t>(root)][owner] += k;
  impl_->occupants[static_cast<size_t>(other)].clear();
  for (auto& [key, k] : impl_->tally[static_cast<size_t>(other)]) impl_->tally[static_cast<size_t>(root)][key] += k;
  impl_->tally[static_cast<size_t>(other)].clear();
  impl_->Touch(root);
  return true;
}

int FeatureGraph::Find(int segment) const { return impl_->FindRoot(segment); }

void FeatureGraph::AddOccupant(int segment, int owner, int pieces, Journal* journal) {
  const int root = Find(segment);
  impl_->Start(journal);
  impl_->Keep(journal, root);
  impl_->occupants[static_cast<size_t>(root)][owner] += pieces;
  impl_->Touch(root);
}

void FeatureGraph::ClearOccupants(int segment, Journal* journal) {
  const int root = Find(segment);
  impl_->Start(journal);
  impl_->Keep(journal, root);
  impl_->occupants[static_cast<size_t>(root)].clear();
  impl_->Touch(root);
}

void FeatureGraph::AddTally(int segment, const std::string& key, int amount, Journal* journal) {
  const int root = Find(segment);
  impl_->Start(journal);
  impl_->Keep(journal, root);
  impl_->tally[static_cast<size_t>(root)][key] += amount;
  impl_->Touch(root);
}

void FeatureGraph::Undo(Journal* journal) {
  if (!journal->started) return;
  Impl& g = *impl_;
  // Newest first, so a segment changed twice ends with its value from before the first change.
  for (auto it = journal->slots.rbegin(); it != journal->slots.rend(); ++it) {
    const size_t i = static_cast<size_t>(it->index);
    g.open[i] = it->open, g.rank[i] = it->rank, g.parent[i] = it->parent, g.next[i] = it->next;
    g.version[i] = it->version;
    g.occupants[i] = std::move(it->occupants);
    g.tally[i] = std::move(it->tally);
  }
  const size_t n = journal->segments;
  g.kind.resize(n), g.open.resize(n), g.rank.resize(n), g.parent.resize(n), g.next.resize(n);
  g.occupants.resize(n), g.tally.resize(n), g.version.resize(n);
  g.connections.resize(journal->connections);
  *journal = Journal();
}

uint64_t FeatureGraph::Version(int segment) const { return impl_->version[static_cast<size_t>(Find(segment))]; }

FeatureGraph::Feature FeatureGraph::Describe(int segment) const {
  Feature f;
  f.root = Find(segment);
  f.kind = impl_->kind[static_cast<size_t>(f.root)];
  f.open_edges = impl_->open[static_cast<size_t>(f.root)];
  int s = f.root;
  do {
    f.segments.push_back(s);
    s = impl_->next[static_cast<size_t>(s)];
  } while (s != f.root);
  std::sort(f.segments.begin(), f.segments.end());
  f.occupants = impl_->occupants[static_cast<size_t>(f.root)];
  f.tally = impl_->tally[static_cast<size_t>(f.root)];
  return f;
}

const std::string& FeatureGraph::Kind(int segment) const { return impl_->kind[static_cast<size_t>(Find(segment))]; }

int FeatureGraph::OpenEdges(int segment) const { return impl_->open[static_cast<size_t>(Find(segment))]; }

const std::map<std::string, int>& FeatureGraph::Tally(int segment) const {
  return impl_->tally[static_cast<size_t>(Find(segment))];
}

const std::map<int, int>& FeatureGraph::Occupants(int segment) const {
  return impl_->occupants[static_cast<size_t>(Find(segment))];
}

std::vector<int> FeatureGraph::Majority(int segment) const {
  const auto& occ = impl_->occupants[static_cast<size_t>(Find(segment))];
  int best = 0;
  for (auto& [owner, k] : occ) best = std::max(best, k);
  std::vector<int> owners;
  if (best == 0) return owners;
  for (auto& [owner, k] : occ)
    if (k == best) owners.push_back(owner);
  return owners;
}

int FeatureGraph::segment_count() const { return static_cast<int>(impl_->kind.size()); }
const std::vector<std::pair<int, int>>& FeatureGraph::connections() const { return impl_->connections; }

bool FeatureGraph::operator==(const FeatureGraph& o) const {
  return impl_->kind == o.impl_->kind && impl_->connections == o.impl_->connections && impl_->open == o.impl_->open &&
         impl_->occupants == o.impl_->occupants && impl_->tally == o.impl_->tally;
}

FeatureGraph::Data FeatureGraph::Export() const {
  return {impl_->kind, impl_->open, impl_->parent, impl_->rank, impl_->occupants, impl_->tally, impl_->connections};
}

bool FeatureGraph::Import(const Data& d, FeatureGraph* out, std::string* why) {
  const size_t n = d.kind.size();
  if (d.open.size() != n || d.parent.size() != n || d.rank.size() != n || d.occupants.size() != n ||
      d.tally.size() != n) {
    if (why) *why = "feature graph arrays differ in length";
    return false;
  }
  for (int p : d.parent)
    if (p < 0 || static_cast<size_t>(p) >= n) {
      if (why) *why = "feature graph parent out of range";
      return false;
    }
  // Every parent chain must reach a root (parent[x] == x), or Find never returns. Each segment
  // is walked once (0 unseen, 1 on the chain being walked, 2 known to reach a root): linear in
  // the segments, whatever shape the links of a hand-edited save take.
  std::vector<uint8_t> state(n, 0);
  std::vector<size_t> chain;
  for (size_t i = 0; i < n; ++i) {
    size_t x = i;
    chain.clear();
    while (state[x] == 0 && static_cast<size_t>(d.parent[x]) != x) {
      state[x] = 1;
      chain.push_back(x);
      x = static_cast<size_t>(d.parent[x]);
    }
    if (state[x] == 1) {
      if (why) *why = "feature graph parent links form a cycle";
      return false;
    }
    state[x] = 2;
    for (size_t c : chain) state[c] = 2;
  }
  FeatureGraph g;
  for (auto [a, b] : d.connections) {
    if (a < 0 || b < 0 || static_cast<size_t>(a) >= n || static_cast<size_t>(b) >= n) {
      if (why) *why = "feature graph connection out of range";
      return false;
    }
  }
  g.impl_->kind = d.kind; g.impl_->open = d.open; g.impl_->parent = d.parent; g.impl_->rank = d.rank;
  // The rings are not saved: each segment joins its root's ring.
  g.impl_->next.resize(n);
  for (size_t i = 0; i < n; ++i) g.impl_->next[i] = static_cast<int>(i);
  for (size_t i = 0; i < n; ++i) {
    const size_t r = static_cast<size_t>(g.impl_->FindRoot(static_cast<int>(i)));
    if (r == i) continue;
    std::swap(g.impl_->next[i], g.impl_->next[r]);
  }
  g.impl_->occupants = d.occupants; g.impl_->tally = d.tally; g.impl_->connections = d.connections;
  g.impl_->version.resize(n);  // not saved: what a script kept by them is for the map it came from
  for (uint64_t& v : g.impl_->version) v = NewContentVersion();
  *out = std::move(g);
  return true;
}

// ---------------------------------------------------------------------------------------

struct RegionGraph::Impl {
  UGraph graph;
  std::vector<std::string> names;
  std::unordered_map<std::string, int> index;
};

RegionGraph::RegionGraph() : impl_(std::make_unique<Impl>()) {}
RegionGraph::~RegionGraph() = default;
RegionGraph::RegionGraph(const RegionGraph& o) : impl_(std::make_unique<Impl>(*o.impl_)) {}
RegionGraph& RegionGraph::operator=(const RegionGraph& o) {
  *impl_ = *o.impl_;
  return *this;
}

int RegionGraph::AddRegion(const std::string& id) {
  auto it = impl_->index.find(id);
  if (it != impl_->index.end()) return it->second;
  const int v = static_cast<int>(boost::add_vertex(impl_->graph));
  impl_->names.push_back(id);
  impl_->index.emplace(id, v);
  return v;
}

bool RegionGraph::AddBorder(const std::string& a, const std::string& b, std::string* why) {
  const int va = Find(a), vb = Find(b);
  if (va < 0 || vb < 0) {
    if (why) *why = "unknown region '" + (va < 0 ? a : b) + "'";
    return false;
  }
  if (va == vb) {
    if (why) *why = "region '" + a + "' cannot border itself";
    return false;
  }
  if (!Adjacent(va, vb)) boost::add_edge(static_cast<size_t>(va), static_cast<size_t>(vb), impl_->graph);
  return true;
}

int RegionGraph::Find(const std::string& id) const {
  auto it = impl_->index.find(id);
  return it == impl_->index.end() ? -1 : it->second;
}

const std::string& RegionGraph::Name(int region) const { return impl_->names.at(static_cast<size_t>(region)); }

std::vector<int> RegionGraph::Neighbors(int region) const {
  std::vector<int> out;
  for (auto [it, end] = boost::adjacent_vertices(static_cast<size_t>(region), impl_->graph); it != end; ++it)
    out.push_back(static_cast<int>(*it));
  std::sort(out.begin(), out.end());
  return out;
}

bool RegionGraph::Adjacent(int a, int b) const {
  return boost::edge(static_cast<size_t>(a), static_cast<size_t>(b), impl_->graph).second;
}

int RegionGraph::Distance(int a, int b) const {
  std::vector<int> dist(static_cast<size_t>(size()), -1);
  dist[static_cast<size_t>(a)] = 0;
  boost::breadth_first_search(
      impl_->graph, static_cast<size_t>(a),
      boost::visitor(boost::make_bfs_visitor(boost::record_distances(
          boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, impl_->graph)),
          boost::on_tree_edge()))));
  return dist[static_cast<size_t>(b)];
}

int RegionGraph::size() const { return static_cast<int>(impl_->names.size()); }

}  // namespace plateau
