#include "engine/runner/case_filter.hpp"

#include "catalog/glob.hpp"
#include "engine/tiers/tier.hpp"

namespace glint::engine {

bool filter_selects(const std::string& filter, const std::string& name) {
    return filter.empty() || catalog::glob_match(filter, name);
}

bool filter_may_select_under(const std::string& filter, const std::string& registration) {
    return filter_selects(filter, registration) ||
           catalog::glob_may_match_extension(filter, registration);
}

bool filter_selects_case(const std::string& filter, const std::string& registration,
                         const std::string& case_name) {
    return filter_selects(filter, registration) ||
           filter_selects(filter, registration + "/" + case_name) ||
           filter_selects(filter, case_name);
}

std::string describe_failure(std::exception_ptr failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const CaseFailure& f) {
        return std::string("after: ") + f.what();
    } catch (const std::exception& x) {
        return std::string("exception: ") + x.what();
    } catch (...) {
        return "exception of unknown type";
    }
}

}  // namespace glint::engine
