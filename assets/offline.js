addEventListener('load',function(){setTimeout(function(){var w=navigator.serviceWorker;w&&w.register('sw.js').catch(function(){})},1500)})
