//! Reading and writing the run's state in the page's URL.
//!
//! Writes never navigate (a navigation would scroll to the top). The link of a run that goes
//! on is rewritten in place (`history.replaceState`: no entry per minute); a new run gets a new
//! entry (`history.pushState`), so Back returns to the run before it. In another page's frame
//! (an embedded lesson) every write is in place: a frame's entries join the host page's
//! history, and the host page's Back must leave the lesson, not step the frame. The path and
//! the fragment are kept as they are.

use wasm_bindgen::JsValue;

use crate::link::parse_query;

/// The current query string ("?…", or empty).
pub fn current_search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The current fragment ("#…", or empty).
pub fn current_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Gives the page's address `fragment` ("#…", or empty for none) in place: no navigation,
/// no history entry. The fragment carries an author's exercise; the query, the run.
#[cfg(feature = "extended")]
pub fn replace_fragment(fragment: &str) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let location = window.location();
    if location.hash()? == fragment {
        return Ok(());
    }
    // An empty fragment would leave a bare "#": the path and query alone drop it.
    let relative = format!("{}{}{}", location.pathname()?, location.search()?, fragment);
    window
        .history()?
        .replace_state_with_url(&JsValue::NULL, "", Some(&relative))
}

/// The value of one query parameter of the current page, if present (the last one wins, as in
/// the core's reading of a link).
pub fn query_param(name: &str) -> Option<String> {
    parse_query(&current_search())
        .into_iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// The page's address with `query` (from `link::encode_query`) in place of its query string.
pub fn href_with_query(query: &str) -> Result<String, JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let location = window.location();
    Ok(format!(
        "{}{}{}{}",
        location.origin()?,
        location.pathname()?,
        query,
        location.hash()?
    ))
}

/// The page with the extended models, beside this one.
pub const EXTENDED_PAGE: &str = "full.html";

/// Opens the run of `query` on the page with the extended models (the request engine, the
/// routed formulas, regions, every autoscaling policy), which this build leaves out to stay
/// small, with the modules open here open there too ([`crate::handover`]). `replace`: without
/// a new history entry (a link that needs them from the start). Returns whether it went.
pub fn open_extended(query: &str, replace: bool) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let location = window.location();
    let Ok(path) = location.pathname() else {
        return false;
    };
    // The extended page sits beside this one: same directory, another file.
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let hash = location.hash().unwrap_or_default();
    let target = format!("{dir}/{EXTENDED_PAGE}{query}{hash}");
    // The modules open here open there too.
    crate::handover::hand_on_open_modules();
    let went = if replace {
        location.replace(&target)
    } else {
        location.assign(&target)
    };
    went.is_ok()
}

/// Replaces the page's query string in place (no navigation, no scrolling, no new history
/// entry). Does nothing when it is already the same.
pub fn replace_query(query: &str) -> Result<(), JsValue> {
    write_query(query, false)
}

/// Gives the page's query string a new history entry (no navigation, no scrolling). Does
/// nothing when it is already the same.
pub fn push_query(query: &str) -> Result<(), JsValue> {
    write_query(query, true)
}

fn write_query(query: &str, push: bool) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let location = window.location();
    if location.search()? == query {
        return Ok(());
    }
    let relative = format!("{}{}{}", location.pathname()?, query, location.hash()?);
    let history = window.history()?;
    if push && !framed(&window) {
        history.push_state_with_url(&JsValue::NULL, "", Some(&relative))?;
    } else {
        history.replace_state_with_url(&JsValue::NULL, "", Some(&relative))?;
    }
    // The parts of the page loaded as modules of their own follow the link: tell them.
    window.dispatch_event(&web_sys::Event::new(LINK_EVENT)?)?;
    Ok(())
}

/// Whether the page runs inside another page's frame.
fn framed(window: &web_sys::Window) -> bool {
    let own = JsValue::from(window.clone());
    window
        .top()
        .ok()
        .flatten()
        .is_some_and(|top| JsValue::from(top) != own)
}

/// The event the page's window receives whenever the page rewrites its link (the browser has
/// no event for it): the parts loaded as modules of their own listen to it.
pub const LINK_EVENT: &str = "oncall-sim:link";

#[cfg(test)]
mod tests {
    use oncall_sim::ids::ScenarioId;
    use oncall_sim::share::ShareState;

    /// The ids the first page's redirect (assets/open-extended.js) lists in `var name`.
    fn listed_in_redirect(name: &str) -> Vec<&'static str> {
        let script = include_str!("../assets/open-extended.js");
        let line = script
            .lines()
            .find(|l| l.contains(&format!("var {name}=")))
            .unwrap_or_else(|| panic!("the first page's redirect lists {name}"));
        line.split('\'').skip(1).step_by(2).collect()
    }

    /// The spellings of the ids among `all` whose runs, alone in a default state, need the
    /// extended build.
    fn needing_extended<T: Copy>(
        all: &[T],
        state: impl Fn(T) -> ShareState,
        name: impl Fn(T) -> &'static str,
    ) -> Vec<&'static str> {
        all.iter()
            .filter(|&&id| state(id).needs_extended())
            .map(|&id| name(id))
            .collect()
    }

    /// index.html sends the links of some scenarios to the extended page before its module
    /// loads (assets/open-extended.js); its list must be exactly the scenarios whose runs
    /// need the extended models.
    #[test]
    fn the_first_pages_fast_path_names_the_scenarios_that_need_the_extended_models() {
        let html = include_str!("../index.html");
        assert!(html.contains(r#"<script src="open-extended.js"></script>"#));
        let needed = needing_extended(
            ScenarioId::ALL,
            |scenario| ShareState {
                scenario,
                ..ShareState::default()
            },
            ScenarioId::as_str,
        );
        assert_eq!(listed_in_redirect("EXTENDED_SCENARIOS"), needed);
        assert!(!needed.is_empty());
    }

    /// Its list of autoscalers must be exactly those whose runs need the extended build.
    #[test]
    fn the_first_pages_fast_path_names_the_policies_the_extended_build_runs() {
        use oncall_sim::autoscale::PolicyId;
        let needed = needing_extended(
            PolicyId::ALL,
            |autoscaler| ShareState {
                autoscaler,
                ..ShareState::default()
            },
            PolicyId::as_str,
        );
        assert_eq!(listed_in_redirect("EXTENDED_POLICIES"), needed);
        let script = include_str!("../assets/open-extended.js");
        assert!(script.contains("EXTENDED_POLICIES.indexOf(q.get('autoscaler'))>=0"));
    }
}
