//! What a page that hands its run on to another (the extended build's, `full.html`) passes
//! along besides the link: the names of the modules it had open (the policy panel, the
//! comparison), so that they open there again; and, from the start view to the comparison's
//! module, that the person came to open a run file.

/// Module `name` opened on this page.
pub fn opened(name: &'static str) {
    OPENED.with_borrow_mut(|o| o.push(name));
}

std::thread_local! {
    /// The modules opened on this page (by their slot's name), in the order they opened.
    static OPENED: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Where a page that hands its run on to another (the extended build's) leaves the names of
/// the modules it had open, for that page to open them again: the tab's session storage.
const REOPEN_KEY: &str = "oncall-sim.reopen";

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// Before the page hands its run on to another page: the modules open here open there too
/// (the policy panel in which a policy was picked stays in view).
pub fn hand_on_open_modules() {
    let names = OPENED.with_borrow(|o| o.join(" "));
    if let Some(storage) = session_storage() {
        let _ = if names.is_empty() {
            storage.remove_item(REOPEN_KEY)
        } else {
            storage.set_item(REOPEN_KEY, &names)
        };
    }
}

/// Whether the page this one took the run from had module `name` open (asked once: the
/// name is then forgotten, so that a reload opens nothing by itself).
pub fn was_open(name: &str) -> bool {
    let Some(storage) = session_storage() else {
        return false;
    };
    let Some(names) = storage.get_item(REOPEN_KEY).ok().flatten() else {
        return false;
    };
    let rest: Vec<&str> = names.split(' ').filter(|n| *n != name).collect();
    let _ = if rest.is_empty() {
        storage.remove_item(REOPEN_KEY)
    } else {
        storage.set_item(REOPEN_KEY, &rest.join(" "))
    };
    names.split(' ').any(|n| n == name)
}

/// Where the start view leaves word that the person came to open a run file, for the
/// comparison's module (a page of its own) to put the focus on its import when it mounts.
const IMPORT_KEY: &str = "oncall-sim.import";

/// The start view: the comparison's module, about to open, is for a run file.
pub fn ask_for_import() {
    if let Some(storage) = session_storage() {
        let _ = storage.set_item(IMPORT_KEY, "1");
    }
}

/// Whether the module was opened to import a run file (asked once).
pub fn import_asked() -> bool {
    let Some(storage) = session_storage() else {
        return false;
    };
    let asked = storage.get_item(IMPORT_KEY).ok().flatten().is_some();
    let _ = storage.remove_item(IMPORT_KEY);
    asked
}
