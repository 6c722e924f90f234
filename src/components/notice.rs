use leptos::prelude::*;

/// A message about the link or the page itself (not about the simulated service).
#[component]
pub fn Notice(text: String) -> impl IntoView {
    view! {
        <p class="notice" role="status">
            {text}
        </p>
    }
}
