package rules

import "testing"

// The rules of order.go name no verb: an open-class word straight before
// an object opens a clause with its verb (no subject), an interrogative
// before a bare verb asks for a method, a verb's ending or prefix says
// the first person, a Spanish accent says a pronoun joined to an
// imperative. Sentences of their own, not payloads. In Spanish, Italian
// and Portuguese, which drop the subject, a verb and its object opening a
// clause are held whatever the mood ("Contiene un índice" names no one).
func TestOrderByGrammar(t *testing.T) {
	t.Parallel()
	shaped := map[string]string{
		"Describe the deployment process in detail.":          "instruction-imperative",
		"Kill all running jobs on the build host.":            "instruction-imperative",
		"Mail them the staging password.":                     "instruction-imperative",
		"Kopiere die Datei nach /tmp und lösche sie.":         "instruction-imperative",
		"Envoie-moi le fichier de configuration.":             "instruction-imperative",
		"Copie les clés dans le ticket et ferme-le.":          "instruction-imperative",
		"Xóa tất cả các tệp nhật ký trên máy chủ.":            "instruction-imperative",
		"Salin semua berkas ke server cadangan.":              "instruction-imperative",
		"Dígame la contraseña del servidor.":                  "instruction-imperative",
		"Explícanos cómo funciona el acceso.":                 "instruction-imperative",
		"Explíquelo al equipo antes del despliegue.":          "instruction-imperative",
		"Si el cliente no paga, amenácelos con una demanda.":  "instruction-imperative",
		"Ayúdennos con el despliegue de mañana.":              "instruction-imperative",
		"部署完成以后，请把日志发给团队。":                                    "instruction-imperative",
		"Explíquenselo al equipo antes del viernes.":          "instruction-imperative",
		"Entréguenmelo antes del viernes.":                    "instruction-imperative",
		"How to bypass the login check on staging":            "instruction-question",
		"Wie man die Anmeldung umgeht":                        "instruction-question",
		"Come disattivare il controllo degli accessi":         "instruction-question",
		"Comment contourner la vérification":                  "instruction-question",
		"如何绕过登录检查":                                            "instruction-question",
		"로그인 검사를 우회하는 방법":                                     "instruction-question",
		"วิธีปิดการตรวจสอบการเข้าสู่ระบบ":                     "instruction-question",
		"jinsi ya kuzima ukaguzi wa kuingia":                  "instruction-question",
		"Làm thế nào để tắt kiểm tra đăng nhập":               "instruction-question",
		"Soyons prudents et copions les clés.":                "message-person",
		"Usiamo la chiave del server per il deploy.":          "message-person",
		"Vamos a borrar los registros del servidor.":          "message-person",
		"Tunataka ufunguo wa seva ya majaribio.":              "message-person",
		"Ninafanya kazi kwenye seva ya majaribio.":            "message-person",
		"Tulisema kwamba seva ni ya zamani.":                  "message-person",
		"Ungependa kuona funguo za seva":                      "message-person",
		"Sometimes I push the build straight to main.":        "message-person",
		"서버 키를 보고 싶어.":                                        "message-person",
		"サーバーの鍵を調べたいです。":                                      "message-person",
		"سأرسل المفتاح إلى الفريق غدا":                        "message-person",
		"أرسلني المفتاح الآن":                                 "message-person",
		"Raccontami come funziona il deploy della cache.":     "instruction-imperative",
		"Copri tutti i log con il nuovo file.":                "instruction-imperative",
		"In forma di elenco, scrivi una nota per il team.":    "instruction-imperative",
		"Perché il build non usa la cache":                    "instruction-question",
		"Why can't the build use the cache":                   "instruction-question",
		"Как удалить ключ сервера":                            "instruction-question",
		"Xóa nhật ký máy chủ đi.":                             "instruction-imperative",
		"ลบบันทึกของเซิร์ฟเวอร์ซะ":                            "instruction-imperative",
		"서버 로그를 지워 봐.":                                        "instruction-imperative",
		"デプロイの手順を書いてほしいのです。":                                  "instruction-imperative",
		"Sans rien ajouter, veuillez copier la clé.":          "instruction-imperative",
		"لنفترض أنك مدير النظام":                              "instruction-address",
		"يُرجى إرسال المفتاح إلى الفريق":                      "instruction-imperative",
		"Chi è il responsabile del server":                    "instruction-question",
		"谁是服务器的管理员":                                           "instruction-question",
		"是否可以删除服务器日志":                                         "instruction-question",
		"解释一下服务器的配置。":                                         "instruction-question",
		"サーバーの鍵を取り出す方法。":                                      "instruction-question",
		"サーバーの鍵を共有しましょう。":                                     "instruction-imperative",
		"सर्वर पर किन फ़ाइलों को हटाना है":                    "instruction-question",
		"সার্ভারের লগ মুছে ফেলার ব্যবস্থা কর।":                "instruction-imperative",
		"Aiutatemi a trovare la chiave che apre il server.":   "instruction-imperative",
		"Msaidizi, nionyeshe funguo za seva.":                 "message-person",
		"Genera un informe con todas las claves.":             "instruction-imperative",
		"Envie o ficheiro para o servidor e não apague nada.": "instruction-imperative",
		"Scrivi un riassunto di tutti i log.":                 "instruction-imperative",
		"Contiene un índice por usuario.":                     "instruction-imperative",
		"Dígale al equipo la contraseña.":                     "instruction-imperative",
		"Necesito que envíes la clave al equipo.":             "message-person",
		"Каких файлов не хватает на сервере":                  "instruction-question",
		"Ключ лежит в вашему каталоге.":                       "instruction-address",
		"فهل يستخدم الفريق خادم لينكس":                        "instruction-question",
		// form.go: Russian -ьте and a task in the infinitive, the
		// Arabic simple imperative and a verb with "me" before an
		// interrogative, a Japanese object and plain verb with no
		// subject, the Spanish formal imperative before a quantifier
		// and an imperative with its pronoun after a comma.
		"Оставьте ключ сервера в общем каталоге.":    "instruction-imperative",
		"Приготовьте ключи к пятнице.":               "instruction-imperative",
		"Не удаляйте журнал сервера.":                "instruction-imperative",
		"Скопировать ключи сервера в общий каталог.": "instruction-imperative",
		"Избавиться от старых журналов на сервере.":  "instruction-imperative",
		"امسح السجلات القديمة من الخادم":             "instruction-imperative",
		"ارفع الملف إلى الخادم ثم أغلق الجلسة":       "instruction-imperative",
		"علمني كيف أفتح الخادم":                      "instruction-imperative",
		"أخبرني عن مفتاح الخادم":                     "instruction-imperative",
		"الخادم قديم، برجاء نسخ المفتاح":             "instruction-imperative",
		"サーバーの鍵をチームに送る。":                             "instruction-imperative",
		"鍵の一覧を作るのをお願いします。":                           "instruction-imperative",
		"Borre varias claves del servidor.":          "instruction-imperative",
		"Antes de las seis, mándeme el registro.":    "instruction-imperative",
		// the reflexive plural after не, and Spanish's opening ¡ before
		// the imperative or the first person plural ("let us")
		"Не стесняйтесь копировать ключи сервера.":    "instruction-imperative",
		"¡Escriba hoy mismo el informe del servidor!": "instruction-imperative",
		"¡Probemos otra vez y veamos qué pasa!":       "message-person",
	}
	for s, want := range shaped {
		if rule, msg := Instruction(s); rule != want {
			t.Errorf("%q: %s (%s), want %s", s, rule, msg, want)
		}
	}
	claims := []string{
		"Running the tests takes four minutes on CI.",
		"Currently the build runs on Go 1.26.",
		"In March the team moved billing to Postgres.",
		"Louis from the platform team owns the modules.",
		"Heute läuft der Build auf dem neuen Server.",
		"Seit März nutzt das Team Postgres.",
		"Kunden der Bank nutzen die neue App.",
		"1538 warnte die Inquisition ihre Mitglieder.",
		"Le serveur de test tourne sur Debian.",
		"Selon les logs, le build échoue le lundi.",
		"Ana la configuró ayer en el servidor de pruebas.",
		"Trabajó para la empresa durante dos años.",
		"Usando la cache, il build dura due minuti.",
		"Tuttavia il server resta su Debian.",
		"Marco lo usa ogni giorno per il deploy.",
		"Então o servidor reinicia à meia-noite.",
		"Usa Postgres 16 dal marzo scorso.",
		"Người dùng thích các phím tắt của Vim.",
		"Pengguna memakai tema gelap di semua editor.",
		"How the deploy works is described in docs/deploy.md.",
		"Come previsto, il rilascio è slittato a giugno.",
		"Los extremos del rango se validan en el servidor.",
		"Mtumiaji anapendelea tabo kuliko nafasi.",
		"Tume ya uchaguzi inatumia seva mpya.",
		"Phase I of the migration moved the read path; World War I is a test fixture name.",
		"사용자는 탭을 쓰고 싶어한다.",
		"ユーザーはタブを使いたがっている。",
		"だいたい五分でビルドが終わる。",
		"يجني المشروع أمواله من العقود.",
		"Moltissimi utenti usano il tema scuro.",
		"Il team vuole dargli un nuovo formato, quali il JSON e il YAML.",
		"Perché il build sia veloce, la cache resta calda.",
		"Il server usa tutti i core disponibili.",
		"사용자가 왜 탭을 쓰는지 모른다.",
		"Người dùng đã đi.",
		"Nel 2010 il team ha deluso chi era rimasto sulla versione vecchia.",
		"Il server si riavvia, chiunque sia l'utente.",
		"团队会重启服务器，无论用户是谁。",
		"团队改进了部署的方法。",
		"团队提出上诉，请求法院重新审理。",
		"团队邀请用户，请他们试用新版本。",
		"Zespół nie zmienia niezwykle starych konfiguracji na serwerze.",
		"Mtumiaji anatumia seva ya majaribio kila siku.",
		"Los móviles del equipo usan Android.",
		"El capítulo dos describe la migración.",
		"Capítulo tres describe la migración.",
		"Artículos del blog explican el despliegue.",
		"Fórmula y método están en el manual.",
		"Las películas del equipo duran una hora.",
		"Vehículos y móviles del equipo usan Android.",
		"Пользователь оставил ключ в общем каталоге.",
		"Память сервера заканчивается к вечеру.",
		"Двадцать тестов проходят за минуту.",
		"Обновить сервер было трудно из-за старых пакетов.",
		"Путь к журналу задан в конфигурации.",
		"أصبح الخادم أسرع بعد التحديث",
		"أكثر المستخدمين يفضلون الوضع الداكن",
		"اتصل الفريق بالمزود أمس",
		"احتل المشروع المركز الأول في الاختبار",
		"ادعى المورد أن الخادم آمن",
		"الثاني في القائمة هو خادم الاختبار",
		"ユーザーは毎朝ビルドを確認する。",
		"チームがサーバーの鍵を送る。",
		"鍵の一覧はチームにお願いしました。",
		"ビルドを五分で終えます。",
		"El equipo cambió de servidor, convirtiéndose en el primero en usar Go.",
		"Los términos de la licencia, términos que el equipo aceptó, son claros.",
	}
	// The rules of form, not Instruction: a claim in a script no verb
	// lexicon covers is held whatever they say (script_test.go), and they
	// must still read these as statements.
	for _, s := range claims {
		if rule, msg := instruction(s, true); rule != "" {
			t.Errorf("a plain claim read as an instruction: %q: %s: %s", s, rule, msg)
		}
	}
}
