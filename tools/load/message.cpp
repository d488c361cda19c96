// keli_load's reading of the server's messages (load.hpp, Message): the top-level fields the
// clients act on, found by walking the object once. The values the tool does not need (a view's
// board as SVG, its history, its seats) are stepped over without being decoded: 500 clients
// reading every view in full would take a good part of the CPU the server is measured on.
#include <cstring>
#include <nlohmann/json.hpp>

#include "load.hpp"

namespace keli_load {

namespace {

// A position in the text; each step leaves `p` just past what it read, and says false when the
// text is not the JSON it should be there.
struct Cursor {
  const char* p;
  const char* end;

  void space() {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
  }
  bool eat(char c) {
    space();
    if (p < end && *p == c) {
      ++p;
      return true;
    }
    return false;
  }
};

// Past a string whose opening quote is at c.p: its end is the first quote after an even number
// of backslashes. memchr finds the candidates, so a long SVG costs little more than a copy.
bool skip_string(Cursor& c) {
  ++c.p;
  while (c.p < c.end) {
    const auto* q = static_cast<const char*>(std::memchr(c.p, '"', static_cast<size_t>(c.end - c.p)));
    if (!q) return false;
    const char* b = q;  // the run of backslashes before q cannot start before c.p: a quote is there
    while (b > c.p && b[-1] == '\\') --b;
    c.p = q + 1;
    if ((q - b) % 2 == 0) return true;
  }
  return false;
}

// Past one value of any kind. Nested objects and arrays are walked by their brackets, the strings
// inside them skipped whole (a bracket inside a string is text).
bool skip_value(Cursor& c) {
  c.space();
  if (c.p >= c.end) return false;
  if (*c.p == '"') return skip_string(c);
  if (*c.p == '{' || *c.p == '[') {
    int depth = 0;
    while (c.p < c.end) {
      const char ch = *c.p;
      if (ch == '"') {
        if (!skip_string(c)) return false;
        continue;
      }
      ++c.p;
      if (ch == '{' || ch == '[') ++depth;
      if ((ch == '}' || ch == ']') && --depth == 0) return true;
    }
    return false;
  }
  const char* start = c.p;  // a number, true, false or null: up to the next separator
  while (c.p < c.end && !std::strchr(",}] \n\r\t", *c.p)) ++c.p;
  return c.p > start;
}

int64_t to_int(std::string_view v) {
  try {
    return std::stoll(std::string(v));
  } catch (const std::exception&) {
    return -2;  // null, or not a number: no seat, no step
  }
}

std::string to_text(std::string_view v) {
  auto j = nlohmann::json::parse(v, nullptr, false);
  return j.is_string() ? j.get<std::string>() : std::string();
}

// One field the tool reads, from the text of its value.
void take(Message& m, std::string_view key, std::string_view v) {
  if (key == "t")
    m.t = to_text(v);
  else if (key == "room")
    m.room = to_text(v);
  else if (key == "code")
    m.code = to_text(v);
  else if (key == "error")
    m.error = to_text(v);
  else if (key == "request")
    m.has_request = true;
  else if (key == "steps")
    m.steps = to_int(v);
  else if (key == "you")
    m.you = to_int(v);
  else if (key == "mover")
    m.mover = to_int(v);
  else if (key == "seat")
    m.seat = to_int(v);
  else if (key == "over")
    m.over = v == "true";
  else if (key == "chance")
    m.chance = v == "true";
  else if (key == "moves") {
    auto j = nlohmann::json::parse(v, nullptr, false);
    if (j.is_array())
      for (const auto& x : j)
        if (x.is_string()) m.moves.push_back(x.get<std::string>());
  }
}

bool wanted(std::string_view key) {
  static constexpr std::string_view kKeys[] = {"t",   "room",  "code", "error", "request", "steps",
                                               "you", "mover", "seat", "over",  "chance",  "moves"};
  for (auto k : kKeys)
    if (k == key) return true;
  return false;
}

}  // namespace

bool read_message(std::string_view text, Message& m) {
  m = Message{};
  Cursor c{text.data(), text.data() + text.size()};
  if (!c.eat('{')) return false;
  if (c.eat('}')) return true;
  do {
    c.space();
    if (c.p >= c.end || *c.p != '"') return false;
    const char* key_start = c.p + 1;
    if (!skip_string(c)) return false;
    // The keys the tool reads have no escapes, so the raw text between the quotes is the key.
    const std::string_view key(key_start, static_cast<size_t>(c.p - 1 - key_start));
    if (!c.eat(':')) return false;
    c.space();
    const char* value_start = c.p;
    if (!skip_value(c)) return false;
    if (wanted(key)) take(m, key, std::string_view(value_start, static_cast<size_t>(c.p - value_start)));
  } while (c.eat(','));
  return c.eat('}');
}

}  // namespace keli_load
