// Text for XML and XHTML (the SVG board, simulation reports): the one escaping of both.
#pragma once

#include <string>
#include <string_view>

namespace keli::util {

// For XML text and attribute values: & < > " ' as entities; control characters other than tab
// and newline, which XML 1.0 forbids, as '?'.
std::string xml_escape(std::string_view text);

}  // namespace keli::util
