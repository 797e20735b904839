#include "engine/model/status.hpp"

namespace glint::engine {

const char* to_string(Status::State state) {
    switch (state) {
        case Status::State::available:
            return "available";
        case Status::State::degraded:
            return "degraded";
        case Status::State::unavailable:
            return "unavailable";
        case Status::State::not_built:
            return "not-built";
    }
    return "unavailable";
}

std::string with_remedy(const Status& s) {
    return s.remedy.empty() ? s.reason : s.reason + " — " + s.remedy;
}

std::string note_line(const Status& s) {
    return s.capability + ": " + s.reason + (s.remedy.empty() ? "" : " — remedy: " + s.remedy);
}

Json status_json(const Status& s) {
    Json c = Json::object();
    c["capability"] = s.capability;
    c["state"] = to_string(s.state);
    c["reason"] = s.reason;
    if (!s.remedy.empty()) c["remedy"] = s.remedy;
    return c;
}

Json status_meta(const std::vector<Status>& statuses) {
    Json m = Json::object();
    const Status front = statuses.empty() ? Status{"", Status::State::unavailable, "not opened", ""}
                                          : statuses.front();
    m["status"] = to_string(front.state);
    m["reason"] = front.reason;
    if (!front.remedy.empty()) m["remedy"] = front.remedy;
    return m;
}

}  // namespace glint::engine
