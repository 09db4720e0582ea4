// The page's own words in English and Russian.  t(key, params) looks the key up in the chosen
// language (then English, then shows the key itself), fills {name} placeholders from params and,
// for an entry given as {one, few, many, other}, picks the plural form for params.n.
// Rule names, preset names and move notation are never translated: they stay as the rules files
// give them.  A renderer adds its own words with addStrings({en: {...}, ru: {...}}).
//
// The language: the one the address asks for (?lang=ru), else the one chosen with the switch
// (remembered in localStorage "gh.pref.lang"), else the browser's (navigator.languages /
// navigator.language: "ru…" is Russian), else English.

export const LANGUAGES = { en: "English", ru: "Русский" };
const STORE = "gh.pref.lang";

const DICT = {
  en: {
    "nav.lobby": "Lobby",
    "nav.matches": "Matches",
    "nav.leaderboard": "Leaderboards",
    "nav.api": "API",
    "nav.language": "Language",
    "loading": "Loading…",
    "error.title": "Something went wrong",
    "error.back": "Back to the lobby",

    // The seats that are words (the sides of a board game) as the page says them; a numbered seat
    // (p1, p2...) is an id, the same in every language.  seat_as.*: "You play {seat}".
    "seat.white": "white",
    "seat.black": "black",
    "seat.attackers": "attackers",
    "seat.defenders": "defenders",
    "seat_as.white": "white",
    "seat_as.black": "black",
    "seat_as.attackers": "the attackers",
    "seat_as.defenders": "the defenders",
    "season.quarter": "{year}-Q{q}",

    "lobby.title": "gamehall — lobby",
    "lobby.heading": "Play a game",
    "lobby.name": "Your name",
    "lobby.guest": "guest",
    "lobby.game": "Game",
    "lobby.helper": "table helper, not rated",
    "lobby.players": "Players",
    "lobby.rules": "Rules",
    "lobby.default": "default",
    "lobby.all_rules": "All rule parameters of this preset",
    "lobby.opponents": "Opponents",
    "lobby.clock": "Clock",
    "lobby.clock_none": "no clock",
    "lobby.clock_fischer": "{m} min + {i} s a move",
    "lobby.clock_custom": "your own…",
    "lobby.clock_minutes": "Minutes each",
    "lobby.clock_increment": "Seconds added a move",
    "lobby.clock_note": "For a table against the computer or a private table; a seat whose time runs out loses by the game's rules. Quick matches keep the rated clock.",
    "lobby.clock_bad": "The clock needs more than 0 minutes each and 0 or more seconds a move.",
    "lobby.strength": "Computer strength",
    "lobby.play_computer": "Play the computer",
    "lobby.private": "Private table (invite link)",
    "lobby.quick": "Quick match",
    "lobby.recent": "Recent matches",
    "lobby.creating": "Creating the table…",
    "lobby.create_failed": "Could not create the table: {detail}",
    "lobby.bots_missing": "Computer players unavailable: {list}",
    "lobby.computer": "computer ({strength})",
    "lobby.open": "Open tables and seeks",
    "lobby.no_open": "No open tables or seeks right now: start one with Quick match or a private table.",
    "lobby.open_failed": "Could not list the open tables: {detail}",
    "lobby.join": "Join",
    "lobby.seek": "seek",
    "lobby.table": "table",
    "lobby.waiting_n": { one: "{n} player waiting", other: "{n} players waiting" },
    "lobby.free_seats": { one: "{n} free seat", other: "{n} free seats" },
    "lobby.open_table": "Open table (anyone may join)",
    "lobby.taken": "{taken} of {seats} seats taken",
    "lobby.host": "host: {name}",
    "lobby.age_s": "opened {n} s ago",
    "lobby.age_min": { one: "opened {n} min ago", other: "opened {n} min ago" },
    "quick.table_open": "Your table for {game} / {preset} is open to anyone, as {player}: waiting for players to join…",

    "strength.beginner": "beginner",
    "strength.casual": "casual",
    "strength.strong": "strong",

    "quick.name_taken": "The name {player} belongs to another player: pick another name.",
    "quick.signup_failed": "Could not sign up as {player}: {detail}",
    "quick.queued": "In the queue for {game} / {preset} as {player}…",
    "quick.waiting": "Waiting for opponents… {s} s",
    "quick.bad_signin": "Your saved sign-in is no longer valid here: press Quick match again to sign up anew.",
    "quick.unavailable": "Quick match is not available on this server right now: play the computer or invite someone.",
    "quick.failed": "Quick match failed: {detail}",
    "quick.in_match": "You are already in a match that has not finished.",
    "quick.go_to_match": "Go to your match",
    "quick.already_queued": "You are already in a queue.",

    "matches.title": "gamehall — matches",
    "matches.heading": "Matches",
    "matches.none": "No matches yet.",
    "matches.failed": "Could not list matches: {detail}",
    "matches.match": "match",
    "matches.game": "game",
    "matches.players": "players",
    "matches.status": "status",
    "matches.result": "result",
    "matches.date": "date",
    "matches.decisions": "decisions",
    "matches.resume": "resume",
    "matches.watch": "watch",
    "matches.replay": "replay",
    "matches.more": "More",

    "status.waiting": "waiting",
    "status.running": "in progress",
    "status.finished": "finished",

    "match.heading": "Match",
    "match.connecting": "connecting",
    "match.offer_draw": "Offer draw",
    "match.accept_draw": "Accept draw",
    "match.decline_draw": "Decline draw",
    "match.resign": "Resign",
    "match.replay": "Replay",
    "match.audit": "Audit bundle",
    "match.copy_invite": "Copy invite link ({seat})",
    "match.invite_copied": "Invite link copied: send it to your opponent.",
    "match.invite_prompt": "Send this link to your opponent:",
    "match.bad_token": "This seat link is not valid; watching as a spectator.",
    "match.refused": "Move refused: {detail}",
    "match.you_play": "You play {seat}.",
    "match.watching": "You are watching this match.",
    "match.cannot_draw": "Cannot draw this game: {detail}",
    "match.game_over": "Game over: {outcome}.",
    "match.offers_draw": "{seat} offers a draw.",
    "match.your_turn": "Your turn",
    "match.waiting_for": "Waiting for {seats}",
    "match.confirm_resign": "Resign this match?",
    "match.you_offer": "You offer a draw.",
    "match.you_play_move": "You play {move}…",
    "match.clock_sound": "Sound in the last 10 seconds",
    "match.draw": "Draw ({reason})",
    "match.draw_plain": "Draw",
    "match.no_result": "No result ({reason})",
    "match.handed_to_bot": "{seats}: now played by the computer.",
    "match.bot_mark": "computer",
    "match.bot_title": "played by the computer",
    "match.won": "{winners} won",
    "match.won_reason": "{winners} won — {reason}",
    "match.over": "The match is over.",
    "match.not_your_turn": "It is not your turn.",
    "conn.connecting": "connecting",
    "conn.live": "live",
    "conn.reconnecting": "reconnecting",
    "conn.closed": "closed",

    "replay.title": "gamehall — replay",
    "replay.heading": "Replay: {game}",
    "replay.download": "Download the audit bundle",
    "replay.live": "live page",
    "replay.first": "« First",
    "replay.prev": "‹ Back",
    "replay.play": "Play",
    "replay.pause": "Pause",
    "replay.next": "Next ›",
    "replay.last": "Last »",
    "replay.step": "decision {i} of {n}",
    "event.ended": "match over ({reason})",
    "event.ended_plain": "ended",

    "board.title": "gamehall — leaderboards",
    "board.heading": "Leaderboards",
    "board.season": "Season {season}",
    "board.player": "player",
    "board.rules": "rules",
    "board.rating": "rating",
    "board.games": "games",
    "board.w": "W",
    "board.d": "D",
    "board.l": "L",
    "board.won": "won",
    "board.drawn": "drawn",
    "board.lost": "lost",
    "board.none": "No rated matches yet: ranked matches appear here when they finish.",
    "board.not_offered": "Leaderboards are not offered by this server yet.",
    "board.failed": "Could not load the leaderboard: {detail}",

    "player.summary": "{matches}, {rated}",
    "player.matches": { one: "{n} match", other: "{n} matches" },
    "player.rated": "{n} rated",
    "player.record": "won {won}, lost {lost}, drawn {drawn}",
    "player.record_plain": "won {won}, lost {lost}",
    "player.ratings": "Ratings",
    "player.recent": "Recent matches",
    "player.season": "season",
    "player.game": "game",
    "player.won": "won",
    "player.lost": "lost",
    "player.drawn": "draw",
    "player.place": "place {rank}",
    "player.none": "No such player (or player pages are not offered by this server yet).",
    "player.no_rated": "No rated games yet.",
    "player.void": "void",
    "player.ruling": "ruling: {reason}",
    "player.amended": "amended by ruling: {reason}",
    "player.season_heading": "Season",
    "player.season_now": "season {season}",
    "player.place_of": "place {rank} of {n}",
    "player.not_this_season": "no rated match this season yet",
    "player.division_none": "Division: none. Ranked play has seasons but no divisions.",
    "player.opponents": "opponents",
    "player.vs": "vs",
    "player.change": "rating",
    "player.no_matches": "No finished matches yet.",
    "player.rated_n": { one: "{n} rated match", other: "{n} rated matches" },
    "player.rating_now": "rating {rating} ± {rd}",
    "player.mu_now": "μ {rating}, σ {rd}",
    "player.chart_label": "{game}, {rules}: rating after each rated match",
    "player.chart_mu": "OpenSkill: the chart shows μ after each match; the leaderboard ranks by μ − 3σ.",
    "player.point": "{date}: {rating} ({change})",
    "player.no_points": "No rated match to chart.",

    // The error codes of the server (the HTTP and WebSocket errors of the routes the page calls,
    // the match layer refusals): errorText() says them in words.  The rejection codes of a game
    // come with their sentences from GET /api/games (the rejections of its contract).
    "code.already_queued": "You are already in a queue.",
    "code.bad_credentials": "Your sign-in is not valid here: sign up again.",
    "code.bad_token": "This seat link is not valid.",
    "code.binary_frame": "The page sent a binary message the server does not read.",
    "code.body_timeout": "The request did not arrive in time: try again.",
    "code.body_too_large": "The request is too large.",
    "code.busy": "The server is busy: try again in a moment.",
    "code.idempotency_conflict": "This request was already sent with different contents.",
    "code.in_match": "You are already in a match that has not finished.",
    "code.invalid_bots": "The computer players asked for are not valid.",
    "code.invalid_cursor": "The list position is not valid: reload the page.",
    "code.invalid_name": "That name cannot be used: letters, digits, - and _ only.",
    "code.invalid_ruleset": "Those rule parameters are not valid.",
    "code.invalid_seats": "This number of players does not fit these rules.",
    "code.invalid_time_control": "That time control is not valid.",
    "code.malformed": "The request is not well formed.",
    "code.match_not_found": "There is no such match.",
    "code.match_over": "The match is over.",
    "code.name_taken": "That name belongs to another player.",
    "code.no_draw_offer": "There is no draw offer to answer.",
    "code.no_draws_at_helper": "This table helper judges no result, so there are no draw offers.",
    "code.no_rules_help": "This game has no rules help here.",
    "code.not_a_seat": "This match has no such seat.",
    "code.not_offered": "This game is not offered for quick match.",
    "code.not_queued": "You are not in the queue.",
    "code.not_your_player": "That player is not yours.",
    "code.not_your_turn": "It is not your turn.",
    "code.out_of_time": "Your time is up.",
    "code.public_needs_invite": "An open table needs an invite, not a queue.",
    "code.ranked_needs_queue": "A rated match starts only from the queue.",
    "code.rate_limited": "Too many requests: wait a moment.",
    "code.slow_consumer": "The connection fell behind: the page reconnects.",
    "code.timeout": "The server did not answer in time: try again.",
    "code.too_deep": "The request is nested too deeply.",
    "code.too_large": "The message is too large.",
    "code.too_long": "The request is too long.",
    "code.too_many_connections": "Too many connections: close some tabs.",
    "code.unauthenticated": "Sign in first.",
    "code.unavailable": "The server is not available right now: try again shortly.",
    "code.unknown_game": "There is no such game.",
    "code.unknown_player": "There is no such player.",
    "code.unknown_preset": "There is no such set of rules.",
    "code.unplayable_seats": "These rules are not played with this number of players: choose another number or other rules.",
    "code.unknown_rules_version": "This match was played under rules this server does not have.",
    "code.unreadable_match": "This match's stored record cannot be read.",
    "code.unsupported_language": "That language is not supported.",
    "code.unsupported_media_type": "The request is not JSON.",
  },
  ru: {
    "nav.lobby": "Лобби",
    "nav.matches": "Партии",
    "nav.leaderboard": "Рейтинги",
    "nav.api": "API",
    "nav.language": "Язык",
    "loading": "Загрузка…",
    "error.title": "Что-то пошло не так",
    "error.back": "Вернуться в лобби",

    "seat.white": "белые",
    "seat.black": "чёрные",
    "seat.attackers": "нападающие",
    "seat.defenders": "защитники",
    "seat_as.white": "белых",
    "seat_as.black": "чёрных",
    "seat_as.attackers": "нападающих",
    "seat_as.defenders": "защитников",
    "season.quarter": "{q}-й квартал {year}",

    "lobby.title": "gamehall — лобби",
    "lobby.heading": "Сыграть партию",
    "lobby.name": "Ваше имя",
    "lobby.guest": "гость",
    "lobby.game": "Игра",
    "lobby.helper": "помощник для стола, без рейтинга",
    "lobby.players": "Игроков",
    "lobby.rules": "Правила",
    "lobby.default": "по умолчанию",
    "lobby.all_rules": "Все параметры правил этого набора",
    "lobby.opponents": "Соперники",
    "lobby.clock": "Часы",
    "lobby.clock_none": "без часов",
    "lobby.clock_fischer": "{m} мин + {i} с за ход",
    "lobby.clock_custom": "свои…",
    "lobby.clock_minutes": "Минут каждому",
    "lobby.clock_increment": "Секунд за ход",
    "lobby.clock_note": "Для стола с компьютером или частного стола; у кого кончилось время, тот проигрывает по правилам игры. В быстрой игре — рейтинговые часы.",
    "lobby.clock_bad": "Часам нужно больше 0 минут каждому и 0 или больше секунд за ход.",
    "lobby.strength": "Сила компьютера",
    "lobby.play_computer": "Играть с компьютером",
    "lobby.private": "Свой стол (ссылка-приглашение)",
    "lobby.quick": "Быстрая игра",
    "lobby.recent": "Недавние партии",
    "lobby.creating": "Создаём стол…",
    "lobby.create_failed": "Не удалось создать стол: {detail}",
    "lobby.bots_missing": "Компьютерные игроки недоступны: {list}",
    "lobby.computer": "компьютер ({strength})",
    "lobby.open": "Открытые столы и заявки",
    "lobby.no_open": "Сейчас нет открытых столов и заявок: начните быструю игру или свой стол.",
    "lobby.open_failed": "Не удалось получить открытые столы: {detail}",
    "lobby.join": "Присоединиться",
    "lobby.seek": "заявка",
    "lobby.table": "стол",
    "lobby.waiting_n": { one: "ждёт {n} игрок", few: "ждут {n} игрока", many: "ждут {n} игроков", other: "ждут {n} игрока" },
    "lobby.free_seats": { one: "{n} свободное место", few: "{n} свободных места", many: "{n} свободных мест", other: "{n} свободного места" },
    "lobby.open_table": "Открытый стол (может сесть любой)",
    "lobby.taken": "занято мест: {taken} из {seats}",
    "lobby.host": "хозяин: {name}",
    "lobby.age_s": "открыт {n} с назад",
    "lobby.age_min": "открыт {n} мин назад",
    "quick.table_open": "Ваш стол ({game} / {preset}) открыт для всех, вы — {player}: ждём, пока кто-нибудь сядет…",

    "strength.beginner": "новичок",
    "strength.casual": "любитель",
    "strength.strong": "сильный",

    "quick.name_taken": "Имя {player} уже занято другим игроком: выберите другое.",
    "quick.signup_failed": "Не удалось зарегистрироваться как {player}: {detail}",
    "quick.queued": "В очереди на {game} / {preset} как {player}…",
    "quick.waiting": "Ждём соперников… {s} с",
    "quick.bad_signin": "Сохранённый вход здесь больше не действует: нажмите «Быстрая игра» ещё раз, чтобы зарегистрироваться заново.",
    "quick.unavailable": "Быстрая игра сейчас недоступна на этом сервере: сыграйте с компьютером или пригласите кого-нибудь.",
    "quick.failed": "Быстрая игра не удалась: {detail}",
    "quick.in_match": "У вас уже есть незаконченная партия.",
    "quick.go_to_match": "Перейти к вашей партии",
    "quick.already_queued": "Вы уже стоите в очереди.",

    "matches.title": "gamehall — партии",
    "matches.heading": "Партии",
    "matches.none": "Партий пока нет.",
    "matches.failed": "Не удалось получить список партий: {detail}",
    "matches.match": "партия",
    "matches.game": "игра",
    "matches.players": "игроки",
    "matches.status": "состояние",
    "matches.result": "результат",
    "matches.date": "дата",
    "matches.decisions": "ходов",
    "matches.resume": "продолжить",
    "matches.watch": "смотреть",
    "matches.replay": "запись",
    "matches.more": "Ещё",

    "status.waiting": "ожидает",
    "status.running": "идёт",
    "status.finished": "окончена",

    "match.heading": "Партия",
    "match.connecting": "подключение",
    "match.offer_draw": "Предложить ничью",
    "match.accept_draw": "Принять ничью",
    "match.decline_draw": "Отклонить ничью",
    "match.resign": "Сдаться",
    "match.replay": "Запись",
    "match.audit": "Пакет для проверки",
    "match.copy_invite": "Скопировать приглашение ({seat})",
    "match.invite_copied": "Ссылка скопирована: отправьте её сопернику.",
    "match.invite_prompt": "Отправьте эту ссылку сопернику:",
    "match.bad_token": "Ссылка на место недействительна; вы смотрите как зритель.",
    "match.refused": "Ход отклонён: {detail}",
    "match.you_play": "Вы играете за {seat}.",
    "match.watching": "Вы смотрите эту партию.",
    "match.cannot_draw": "Не удаётся показать эту игру: {detail}",
    "match.game_over": "Партия окончена: {outcome}.",
    "match.offers_draw": "Ничью предлагают: {seat}.",
    "match.your_turn": "Ваш ход",
    "match.waiting_for": "Ждём: {seats}",
    "match.confirm_resign": "Сдать эту партию?",
    "match.you_offer": "Вы предлагаете ничью.",
    "match.you_play_move": "Ваш ход: {move}…",
    "match.clock_sound": "Звук в последние 10 секунд",
    "match.draw": "Ничья ({reason})",
    "match.draw_plain": "Ничья",
    "match.no_result": "Без результата ({reason})",
    "match.handed_to_bot": "{seats}: теперь играет компьютер.",
    "match.bot_mark": "компьютер",
    "match.bot_title": "за это место играет компьютер",
    "match.won": "Победа: {winners}",
    "match.won_reason": "Победа: {winners} — {reason}",
    "match.over": "Партия окончена.",
    "match.not_your_turn": "Сейчас не ваш ход.",
    "conn.connecting": "подключение",
    "conn.live": "на связи",
    "conn.reconnecting": "переподключение",
    "conn.closed": "закрыто",

    "replay.title": "gamehall — запись",
    "replay.heading": "Запись: {game}",
    "replay.download": "Скачать пакет для проверки",
    "replay.live": "страница партии",
    "replay.first": "« В начало",
    "replay.prev": "‹ Назад",
    "replay.play": "Воспроизвести",
    "replay.pause": "Пауза",
    "replay.next": "Вперёд ›",
    "replay.last": "В конец »",
    "replay.step": "решение {i} из {n}",
    "event.ended": "партия окончена ({reason})",
    "event.ended_plain": "окончена",

    "board.title": "gamehall — рейтинги",
    "board.heading": "Рейтинги",
    "board.season": "Сезон: {season}",
    "board.player": "игрок",
    "board.rules": "правила",
    "board.rating": "рейтинг",
    "board.games": "партий",
    "board.w": "В",
    "board.d": "Н",
    "board.l": "П",
    "board.won": "побед",
    "board.drawn": "ничьих",
    "board.lost": "поражений",
    "board.none": "Рейтинговых партий пока нет: они появятся здесь, когда закончатся.",
    "board.not_offered": "Этот сервер пока не ведёт рейтинги.",
    "board.failed": "Не удалось загрузить рейтинг: {detail}",

    "player.summary": "{matches}, {rated}",
    "player.matches": { one: "{n} партия", few: "{n} партии", many: "{n} партий", other: "{n} партии" },
    "player.rated": "рейтинговых: {n}",
    "player.record": "побед {won}, поражений {lost}, ничьих {drawn}",
    "player.record_plain": "побед {won}, поражений {lost}",
    "player.ratings": "Рейтинги",
    "player.recent": "Недавние партии",
    "player.season": "сезон",
    "player.game": "игра",
    "player.won": "победа",
    "player.lost": "поражение",
    "player.drawn": "ничья",
    "player.place": "место {rank}",
    "player.none": "Нет такого игрока (или этот сервер пока не показывает страницы игроков).",
    "player.no_rated": "Рейтинговых партий пока нет.",
    "player.void": "аннулирована",
    "player.ruling": "решение: {reason}",
    "player.amended": "изменено решением: {reason}",
    "player.season_heading": "Сезон",
    "player.season_now": "сезон: {season}",
    "player.place_of": "место {rank} из {n}",
    "player.not_this_season": "в этом сезоне рейтинговых партий ещё нет",
    "player.division_none": "Дивизион: нет. В рейтинговой игре есть сезоны, но нет дивизионов.",
    "player.opponents": "соперники",
    "player.vs": "против",
    "player.change": "рейтинг",
    "player.no_matches": "Законченных партий пока нет.",
    "player.rated_n": { one: "{n} рейтинговая партия", few: "{n} рейтинговые партии", many: "{n} рейтинговых партий", other: "{n} рейтинговой партии" },
    "player.rating_now": "рейтинг {rating} ± {rd}",
    "player.mu_now": "μ {rating}, σ {rd}",
    "player.chart_label": "{game}, {rules}: рейтинг после каждой рейтинговой партии",
    "player.chart_mu": "OpenSkill: на графике μ после каждой партии; места в таблице рейтинга — по μ − 3σ.",
    "player.point": "{date}: {rating} ({change})",
    "player.no_points": "Нет рейтинговых партий для графика.",

    "code.already_queued": "Вы уже стоите в очереди.",
    "code.bad_credentials": "Ваш вход здесь недействителен: зарегистрируйтесь заново.",
    "code.bad_token": "Ссылка на место недействительна.",
    "code.binary_frame": "Страница отправила двоичное сообщение, которое сервер не читает.",
    "code.body_timeout": "Запрос не дошёл вовремя: попробуйте ещё раз.",
    "code.body_too_large": "Запрос слишком большой.",
    "code.busy": "Сервер занят: попробуйте через мгновение.",
    "code.idempotency_conflict": "Этот запрос уже отправлялся с другим содержимым.",
    "code.in_match": "Вы уже играете неоконченную партию.",
    "code.invalid_bots": "Неверно заданы компьютерные игроки.",
    "code.invalid_cursor": "Неверная позиция в списке: обновите страницу.",
    "code.invalid_name": "Это имя использовать нельзя: только буквы, цифры, - и _.",
    "code.invalid_ruleset": "Эти параметры правил недопустимы.",
    "code.invalid_seats": "Такое число игроков не подходит к этим правилам.",
    "code.invalid_time_control": "Неверный контроль времени.",
    "code.malformed": "Запрос составлен неверно.",
    "code.match_not_found": "Такой партии нет.",
    "code.match_over": "Партия окончена.",
    "code.name_taken": "Это имя принадлежит другому игроку.",
    "code.no_draw_offer": "Предложения ничьей нет.",
    "code.no_draws_at_helper": "Этот помощник стола не определяет результат: ничью здесь не предлагают.",
    "code.no_rules_help": "Для этой игры справки по правилам нет.",
    "code.not_a_seat": "В этой партии нет такого места.",
    "code.not_offered": "Эта игра не предлагается для быстрой игры.",
    "code.not_queued": "Вас нет в очереди.",
    "code.not_your_player": "Это не ваш игрок.",
    "code.not_your_turn": "Сейчас не ваш ход.",
    "code.out_of_time": "Ваше время истекло.",
    "code.public_needs_invite": "Открытому столу нужно приглашение, а не очередь.",
    "code.ranked_needs_queue": "Рейтинговая партия начинается только через очередь.",
    "code.rate_limited": "Слишком много запросов: подождите немного.",
    "code.slow_consumer": "Соединение отстало: страница переподключится.",
    "code.timeout": "Сервер не ответил вовремя: попробуйте ещё раз.",
    "code.too_deep": "Запрос слишком глубоко вложен.",
    "code.too_large": "Сообщение слишком большое.",
    "code.too_long": "Запрос слишком длинный.",
    "code.too_many_connections": "Слишком много соединений: закройте лишние вкладки.",
    "code.unauthenticated": "Сначала войдите.",
    "code.unavailable": "Сервер сейчас недоступен: попробуйте чуть позже.",
    "code.unknown_game": "Такой игры нет.",
    "code.unknown_player": "Такого игрока нет.",
    "code.unknown_preset": "Такого набора правил нет.",
    "code.unplayable_seats": "По этим правилам не играют таким числом игроков: выберите другое число или другие правила.",
    "code.unknown_rules_version": "Партия сыграна по версии правил, которой на этом сервере нет.",
    "code.unreadable_match": "Запись этой партии не читается.",
    "code.unsupported_language": "Этот язык не поддерживается.",
    "code.unsupported_media_type": "Запрос не в формате JSON.",
  },
};

function stored() {
  try { return localStorage.getItem(STORE); } catch { return null; }
}

// The browser's preferred language among ours ("ru-RU" -> "ru"), else English.
export function browserLanguage(nav = globalThis.navigator) {
  const wanted = [...((nav && nav.languages) || []), nav && nav.language].filter(Boolean);
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

// ?lang=ru in the address asks for a language for this visit (before the remembered switch).
const asked = (() => { try { return new URLSearchParams(location.search).get("lang"); } catch { return null; } })();
let current = (() => { const s = stored(); return asked in LANGUAGES ? asked : s in LANGUAGES ? s : browserLanguage(); })();

export const lang = () => current;

// Choose a language and remember it; the page redraws itself on the "languagechange" it hears.
export function setLang(code) {
  if (!(code in LANGUAGES)) return;
  current = code;
  try { localStorage.setItem(STORE, code); } catch { /* private mode: this page only */ }
  document.documentElement.lang = code;
  window.dispatchEvent(new CustomEvent("gh-language", { detail: code }));
}

// More words, for a renderer or a page part: addStrings({en: {"kc.empty": "empty"}, ru: {...}}).
export function addStrings(more) {
  for (const [code, entries] of Object.entries(more)) Object.assign(DICT[code] || (DICT[code] = {}), entries);
}

export function has(key) {
  return key in DICT[current] || key in DICT.en;
}

// A server error ({code, detail}) in the page's language: the sentence of "code.<code>" when the
// page knows the code, else the server's own detail with the code in brackets (for a bug report).
export function errorText(code, detail) {
  if (code && has(`code.${code}`)) return t(`code.${code}`);
  const text = String(detail || code || "");
  return code ? `${text} [${code}]` : text;
}

// A seat as the page says it: "белые" for white in Russian; a numbered seat (p1) as it is.
export const seatWord = (seat) => (has(`seat.${seat}`) ? t(`seat.${seat}`) : String(seat ?? ""));
// The seat you play ("Вы играете за белых"): the form after "за" where the language has one.
export const seatAs = (seat) => (has(`seat_as.${seat}`) ? t(`seat_as.${seat}`) : seatWord(seat));

// A season's id in words: "2026-Q4" is "4-й квартал 2026" in Russian; any other id as it is.
export function seasonText(season) {
  const m = /^(\d{4})-Q([1-4])$/.exec(String(season ?? ""));
  return m ? t("season.quarter", { year: m[1], q: m[2] }) : String(season ?? "");
}

// The words of a failed request (api() throws an Error with .code and the detail as .message).
export const failure = (e) => errorText(e && e.code, (e && e.message) || e);

export function t(key, params = {}) {
  let s = DICT[current][key] ?? DICT.en[key] ?? key;
  if (s && typeof s === "object") {
    const form = new Intl.PluralRules(current).select(Number(params.n ?? 0));
    s = s[form] ?? s.other ?? s.many ?? Object.values(s)[0];
  }
  return String(s).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// Static text of index.html: every element with data-i18n="key" gets t(key) as its text.
export function translateStatic(root = document) {
  document.documentElement.lang = current;
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
}

// A date in the page's language ("1 Dec 2026, 12:30" / "1 дек. 2026 г., 12:30").
export function formatDate(value) {
  const d = typeof value === "number" ? new Date(value) : new Date(String(value));
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(current === "ru" ? "ru-RU" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}
