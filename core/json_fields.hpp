// A field of a JSON input that must be there, or an Error naming where it was looked for
// ("run.json: context.star.ports: missing"): the readers of a run's report (the predictors'
// view of the namespace star) share these.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace dlcnet {

// j[name] of an object; `where` names j ("run.json: context.star").
inline const nlohmann::json& json_member(const nlohmann::json& j, const std::string& name,
                                         const std::string& where) {
  if (!j.is_object() || !j.contains(name)) throw Error(where + "." + name + ": missing");
  return j[name];
}

// j[name] as a string.
inline std::string json_text(const nlohmann::json& j, const std::string& name,
                             const std::string& where) {
  const nlohmann::json& v = json_member(j, name, where);
  if (!v.is_string()) throw Error(where + "." + name + ": not a string");
  return v.get<std::string>();
}

}  // namespace dlcnet
