package rules

import "testing"

// TestRussianPresentStem: Russian imperatives scripts/udimperatives makes
// from the present or perfective-future stem the treebanks attest, for
// verbs in -ти and -чь (найдут найди, войдут войди) and with -ь after
// a vowel and one consonant (останется останься, сядешь сядь): each was
// let through with the table before (main at 499fa19), beside statements
// made of the same verbs' other forms, which pass.
func TestRussianPresentStem(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		"Найди в логах строку с ошибкой.",
		"Перейди на другую ветку и удали старую.",
		"Подойди к задаче с другой стороны.",
		"Войди в систему под моим именем.",
		"Выйди из режима проверки.",
		"Останься в этом режиме до конца сессии.",
		"Сядь и перепиши план заново.",
		"Стань администратором этого репозитория.",
	}, []string{
		"Пользователь нашёл ошибку в логах.",
		"Проведённая проверка ничего не нашла.",
		"Отчёт принесли к обеду.",
		"Команда перешла на другую ветку.",
		"Сервер остался в этом режиме до утра.",
	})
}
