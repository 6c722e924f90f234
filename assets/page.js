// The console pages' language picker and service worker registration (see index.html).
document.addEventListener('change',function(e){var s=e.target,q,p;if(!s.matches||!s.matches('select[data-action=language]'))return;q=new URLSearchParams(location.search);q.delete('lang');q.append('lang',s.value);p=location.pathname;if(s.value!='en')p=p.replace(/[^/]*$/,'full.html');location.assign(p+'?'+q+location.hash)});
addEventListener('load',function(){setTimeout(function(){var w=navigator.serviceWorker;w&&w.register('sw.js').catch(function(){})},1500)})
